// Test helpers for the HD, details, toast and queue components: a stand-in request client, the providers,
// a fetch answering by path, and the <dialog> methods jsdom lacks. Imported by tests only.
import type { CommandInput, HdStatusMessage, Tag } from '@tessera/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { vi } from 'vitest';
import { MessagingProvider } from '../../lib/messaging';
import type { HdStatusListener, RequestClient } from '../../lib/messaging';
import { hdJobStore } from './hd-job-store';

// Other features' tests reach the HD test data and the job store through this module.
export { hdJob, hdStatus } from './fixtures';
export { hdJobStore } from './hd-job-store';

export interface FakeClient extends RequestClient {
  sent: CommandInput<'generate-image'>[];
  /** Delivers an HD status event to every listener, as the broker would. */
  emit(message: HdStatusMessage | { unknown: unknown }): void;
  listenerCount(): number;
}

export function fakeClient({ user = 'alice', tags = [] as Tag[] } = {}): FakeClient {
  const listeners = new Set<HdStatusListener>();
  const sent: CommandInput<'generate-image'>[] = [];
  const client: FakeClient = {
    user,
    sent,
    request: vi.fn(async (action: string) => {
      if (action === 'list-tag') {
        return {
          transactionid: 't',
          user,
          success: true,
          page: 1,
          size: 10,
          total: tags.length,
          tags,
        };
      }
      return { transactionid: 't', user, success: true };
    }) as unknown as RequestClient['request'],
    sendHdCommand: vi.fn(async (payload: CommandInput<'generate-image'>) => {
      sent.push(payload);
    }),
    onHdStatus(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    dispose: () => undefined,
    emit(message) {
      act(() => {
        for (const listener of listeners) {
          listener(
            'unknown' in message
              ? { kind: 'unknown', payload: message.unknown }
              : { kind: 'status', message },
          );
        }
      });
    },
    listenerCount: () => listeners.size,
  };
  return client;
}

/** Providers as the app has them, around `children`, with a fresh query cache. */
export function TestProviders({
  client,
  children,
}: {
  client: RequestClient | null;
  children: ReactNode;
}) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return (
    <QueryClientProvider client={queryClient}>
      <MessagingProvider client={client}>
        <MemoryRouter>{children}</MemoryRouter>
      </MessagingProvider>
    </QueryClientProvider>
  );
}

export interface FetchCall {
  path: string;
  method: string;
  body: unknown;
}

/**
 * Replaces fetch: `answer` gets each call and returns [status, body] (undefined: 404). The calls
 * are recorded in the returned list.
 */
export function stubFetch(answer: (call: FetchCall) => [number, unknown] | undefined): FetchCall[] {
  const calls: FetchCall[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const path = typeof input === 'string' ? input : input.toString();
      const call: FetchCall = {
        path,
        method: init.method ?? 'GET',
        body: typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
      };
      calls.push(call);
      const [status, body] = answer(call) ?? [404, { error: 'Not found' }];
      return new Response(body === undefined ? '' : JSON.stringify(body), {
        status,
        headers: { 'Content-Type': 'application/json' },
      });
    }),
  );
  return calls;
}

/** jsdom has <dialog> without showModal/close: enough of them for the modal's own logic. */
export function installDialogPolyfill(): void {
  const proto = HTMLDialogElement.prototype as HTMLDialogElement & { __polyfilled?: boolean };
  if (proto.__polyfilled) return;
  proto.__polyfilled = true;
  proto.showModal = function showModal(this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  proto.close = function close(this: HTMLDialogElement) {
    if (!this.hasAttribute('open')) return;
    this.removeAttribute('open');
    this.dispatchEvent(new Event('close'));
  };
}

/** For afterEach: unmounts, empties the shared HD record, and undoes fake timers, stubs and spies. */
export function resetAfterTest(): void {
  cleanup();
  hdJobStore.reset();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
}
