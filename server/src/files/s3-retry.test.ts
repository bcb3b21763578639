import { errorText } from '@tessera/contract';
import { describe, expect, it } from 'vitest';
import { withWaitingNotices } from '../runtime/waiting-notices.js';
import { FileStoreUnreachableError, retryingStore } from './s3-retry.js';

// Issue 23, part 11: which object-store failures are waited out, for how long, and what the user
// reads. The real s3rver killed under a job: object-store-outage.test.ts.

const RETRY = { windowMs: 2000, baseMs: 5, maxMs: 20 };
const refused = () =>
  Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:43917'), { code: 'ECONNREFUSED' });

/** Work that fails `times` times as an unreachable store, then answers 'ok'. */
function failing(times: number, error: () => Error = refused) {
  let calls = 0;
  return {
    calls: () => calls,
    work: () => (++calls <= times ? Promise.reject(error()) : Promise.resolve('ok')),
  };
}

describe('object-store retries', () => {
  it('in a job, waits out an unreachable store and tells the job it waits, then that it goes on', async () => {
    const notices: (string | undefined)[] = [];
    const store = failing(3);
    const result = await withWaitingNotices(
      (notice) => notices.push(notice),
      () => retryingStore(RETRY, store.work),
    );
    expect(result).toBe('ok');
    expect(store.calls()).toBe(4);
    expect(notices.at(0)).toBe(errorText('FILE_STORE_RETRYING'));
    expect(notices.at(-1)).toBeUndefined();
  });

  it('in a job, gives up after the window with the readable text, never the socket error', async () => {
    const store = failing(Infinity);
    const failure: unknown = await withWaitingNotices(
      () => undefined,
      () => retryingStore({ ...RETRY, windowMs: 50 }, store.work),
    ).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(FileStoreUnreachableError);
    expect((failure as Error).message).toBe(errorText('FILE_STORE_UNREACHABLE'));
    expect(store.calls()).toBeGreaterThan(1);
  });

  it('in a job that is abandoned (a stop, a cancel), ends its wait at once with the abort reason', async () => {
    const store = failing(Infinity);
    const abandon = new AbortController();
    const notices: (string | undefined)[] = [];
    const stopping = new Error('the server is stopping');
    const failure = withWaitingNotices(
      (notice) => {
        notices.push(notice);
        // Told it waits: the job is abandoned now, inside a wait of the hour-long window.
        abandon.abort(stopping);
      },
      () => retryingStore({ windowMs: 3_600_000, baseMs: 3_600_000, maxMs: 3_600_000 }, store.work),
      abandon.signal,
    ).catch((err: unknown) => err);
    expect(await failure).toBe(stopping);
    expect(store.calls()).toBe(1);
    expect(notices).toEqual([errorText('FILE_STORE_RETRYING')]);
  });

  it('outside a job (an HTTP request) does not wait: one try, then the readable error', async () => {
    const store = failing(1);
    await expect(retryingStore(RETRY, store.work)).rejects.toBeInstanceOf(
      FileStoreUnreachableError,
    );
    expect(store.calls()).toBe(1);
  });

  it('passes an answer through untouched: a missing object is not an outage', async () => {
    const missing = () =>
      Object.assign(new Error('NoSuchKey'), {
        name: 'NoSuchKey',
        $metadata: { httpStatusCode: 404 },
      });
    const store = failing(1, missing);
    const failure = await withWaitingNotices(
      () => undefined,
      () => retryingStore(RETRY, store.work),
    ).catch((err: unknown) => err);
    expect((failure as Error).name).toBe('NoSuchKey');
    expect(store.calls()).toBe(1);
  });

  it('waits out a 503 (SlowDown) as it does a refused connection', async () => {
    const slowDown = () =>
      Object.assign(new Error('SlowDown'), {
        name: 'SlowDown',
        $metadata: { httpStatusCode: 503 },
      });
    const store = failing(2, slowDown);
    const result = await withWaitingNotices(
      () => undefined,
      () => retryingStore(RETRY, store.work),
    );
    expect(result).toBe('ok');
  });
});
