import type { WebhookResponse, WebhookSender } from '../services/webhook-ports.js';

export interface WebhookSenderSettings {
  /** The whole try, from connecting to the last byte read back. */
  timeoutMs: number;
  /** What is read of the receiver's answer at most; the rest is dropped. */
  maxResponseBytes: number;
}

export const DEFAULT_WEBHOOK_SENDER: WebhookSenderSettings = {
  timeoutMs: 10_000,
  maxResponseBytes: 64 * 1024,
};

/**
 * Webhook tries over HTTP(S) with fetch: POST with the signed headers, a deadline over the
 * whole try, no redirect followed (a 3xx is a failed try: the receiver must name its real
 * address), and at most `maxResponseBytes` of the answer read. A 2xx answer is delivered.
 */
export function createWebhookSender(
  settings: WebhookSenderSettings = DEFAULT_WEBHOOK_SENDER,
): WebhookSender {
  return {
    async send(url, headers, body) {
      const signal = AbortSignal.timeout(settings.timeoutMs);
      try {
        const response = await fetch(url, {
          method: 'POST',
          headers: { ...headers, 'user-agent': 'Tessera-Webhooks' },
          body,
          redirect: 'manual',
          signal,
        });
        await drain(response, settings.maxResponseBytes);
        return classify(response.status);
      } catch (err) {
        return { status: null, error: failureOf(err, signal) };
      }
    },
  };
}

function classify(status: number): WebhookResponse {
  if (status >= 200 && status < 300) return { status, error: null };
  if (status >= 300 && status < 400) return { status, error: 'redirect' };
  return { status, error: 'status' };
}

/** Reads the answer up to `max` bytes, then lets the connection go. */
async function drain(response: Response, max: number): Promise<void> {
  if (!response.body) return;
  const reader = response.body.getReader();
  let read = 0;
  try {
    while (read <= max) {
      const chunk = await reader.read();
      if (chunk.done) return;
      read += chunk.value.byteLength;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

function failureOf(err: unknown, signal: AbortSignal): WebhookResponse['error'] {
  if (signal.aborted) return 'timeout';
  const cause = err instanceof Error ? (err.cause as { code?: string } | undefined) : undefined;
  const code = cause?.code ?? '';
  if (['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ECONNRESET'].includes(code)) {
    return 'refused';
  }
  return 'network';
}
