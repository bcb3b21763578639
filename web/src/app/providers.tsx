import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { isUnauthorized, sessionQuery } from '../features/auth';
import { MessagingProvider } from '../lib/messaging';
import { useRequestClient } from '../lib/mqtt';

/**
 * An answer 401 means the session ended (signed out in another tab, expired, password changed):
 * the session is read again, and the screens' guard (require-session.tsx) then shows the Login
 * screen, rather than the screen retrying or waiting on a request that cannot succeed.
 */
function onSessionRefused(error: unknown): void {
  if (isUnauthorized(error))
    void queryClient.invalidateQueries({ queryKey: sessionQuery.queryKey });
}

/** The page's one QueryClient. */
const queryClient: QueryClient = new QueryClient({
  queryCache: new QueryCache({ onError: onSessionRefused }),
  mutationCache: new MutationCache({ onError: onSessionRefused }),
  defaultOptions: {
    // TanStack's default of three retries, but none for a refused session.
    queries: { retry: (failures, error) => failures < 3 && !isUnauthorized(error) },
  },
});

export function Providers({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <ConnectionMessaging>{children}</ConnectionMessaging>
    </QueryClientProvider>
  );
}

/**
 * Hands on the request client that lib/mqtt.ts keeps with its one client. It only reads: the
 * client is still created by start-up (or sign-in), after the title, theme and broker address.
 */
function ConnectionMessaging({ children }: { children: ReactNode }) {
  return <MessagingProvider client={useRequestClient()}>{children}</MessagingProvider>;
}
