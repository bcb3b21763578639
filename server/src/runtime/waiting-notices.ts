import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Told what a user should read while their work waits on a dependency (a contract text such as
 * "the image storage cannot be reached, retrying"), and undefined once it goes on.
 */
export type WaitingListener = (notice: string | undefined) => void;

interface FollowedWork {
  listener: WaitingListener;
  /** Aborted when the work is abandoned (a stop, a cancel): its waits end there. */
  signal?: AbortSignal;
}

const followed = new AsyncLocalStorage<FollowedWork>();

/**
 * Runs `work` with `listener` told of every wait inside it, however deep: the job runner hears
 * an adapter's retries this way without the adapter knowing of jobs (issue 23, part 11).
 */
export function withWaitingNotices<T>(
  listener: WaitingListener,
  work: () => T,
  signal?: AbortSignal,
): T {
  return followed.run({ listener, ...(signal && { signal }) }, work);
}

/** Whether the caller runs inside work someone follows (a job), which may wait for minutes. */
export function waitingIsFollowed(): boolean {
  return followed.getStore() !== undefined;
}

/** The signal that abandons the followed work, if any: a wait inside it should end with it. */
export function waitingSignal(): AbortSignal | undefined {
  return followed.getStore()?.signal;
}

/** Tells the work's follower, if any, that it waits (a text) or goes on (undefined). */
export function noticeWaiting(notice: string | undefined): void {
  followed.getStore()?.listener(notice);
}
