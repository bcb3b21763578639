import { setTimeout as sleep } from 'node:timers/promises';
import { errorText } from '@tessera/contract';
import { noticeWaiting, waitingIsFollowed, waitingSignal } from '../runtime/waiting-notices.js';

/** How object-store work rides out an outage (FILES_RETRY_WINDOW_MS). */
export interface FileStoreRetry {
  /** How long a job's store call keeps trying before it fails; 0: no retries. */
  windowMs: number;
  /** The first wait between tries, doubled after each, up to `maxMs`. */
  baseMs: number;
  maxMs: number;
}

export const DEFAULT_FILES_RETRY: FileStoreRetry = {
  windowMs: 5 * 60_000,
  baseMs: 250,
  maxMs: 5000,
};

/** The object store did not answer (within the retry window): what the user reads says so. */
export class FileStoreUnreachableError extends Error {
  override name = 'FileStoreUnreachableError';
  readonly code = 'FILE_STORE_UNREACHABLE';

  constructor(cause: unknown) {
    super(errorText('FILE_STORE_UNREACHABLE'), { cause });
  }
}

/** Node's codes for a server that cannot be reached or dropped the connection. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'EAI_AGAIN',
  'ENOTFOUND',
  'UND_ERR_SOCKET',
]);

/**
 * Whether the store could not be reached, or answered that it cannot serve now (a 5xx: S3's
 * 500 InternalError and 503 SlowDown ask for a retry), rather than answering the request.
 */
export function isUnreachable(err: unknown): boolean {
  const e = err as
    | { code?: unknown; name?: unknown; message?: unknown; $metadata?: { httpStatusCode?: number } }
    | undefined;
  if (!e) return false;
  if (typeof e.code === 'string' && NETWORK_CODES.has(e.code)) return true;
  if (e.name === 'TimeoutError' || e.name === 'RequestTimeout') return true;
  if (typeof e.message === 'string' && /socket hang up|ECONNREFUSED|ECONNRESET/.test(e.message)) {
    return true;
  }
  const status = e.$metadata?.httpStatusCode;
  return status !== undefined && status >= 500;
}

/**
 * Runs one piece of object-store work, again after a doubling wait while the store cannot be
 * reached. In a job (someone follows its waits) it keeps trying for the retry window, telling the
 * job that it waits; elsewhere (an HTTP request, which should answer now) it does not wait at
 * all. Either way an unreachable store ends in FileStoreUnreachableError, whose text is readable;
 * a job abandoned meanwhile ends with its abort reason.
 */
export async function retryingStore<T>(retry: FileStoreRetry, work: () => Promise<T>): Promise<T> {
  const window = waitingIsFollowed() ? retry.windowMs : 0;
  const started = Date.now();
  let failures = 0;
  for (;;) {
    try {
      const result = await work();
      if (failures > 0) noticeWaiting(undefined);
      return result;
    } catch (err) {
      if (!isUnreachable(err)) throw err;
      const left = window - (Date.now() - started);
      if (left <= 0) throw new FileStoreUnreachableError(err);
      failures++;
      noticeWaiting(errorText('FILE_STORE_RETRYING'));
      // A stop or a cancel ends the wait at once: the job goes back to the queue, not minutes later.
      const signal = waitingSignal();
      const pause = Math.min(left, retry.maxMs, retry.baseMs * 2 ** (failures - 1));
      await sleep(pause, undefined, { ...(signal && { signal }) }).catch((aborted: unknown) => {
        throw signal?.aborted ? signal.reason : aborted;
      });
    }
  }
}
