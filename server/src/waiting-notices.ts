import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Told what a user should read while their work waits on a dependency (a contract text such as
 * "the image storage cannot be reached, retrying"), and undefined once it goes on.
 */
export type WaitingListener = (notice: string | undefined) => void;

const listeners = new AsyncLocalStorage<WaitingListener>();

/**
 * Runs `work` with `listener` told of every wait inside it, however deep: the job runner hears
 * an adapter's retries this way without the adapter knowing of jobs (issue 23, part 11).
 */
export function withWaitingNotices<T>(listener: WaitingListener, work: () => T): T {
  return listeners.run(listener, work);
}

/** Whether the caller runs inside work someone follows (a job), which may wait for minutes. */
export function waitingIsFollowed(): boolean {
  return listeners.getStore() !== undefined;
}

/** Tells the work's follower, if any, that it waits (a text) or goes on (undefined). */
export function noticeWaiting(notice: string | undefined): void {
  listeners.getStore()?.(notice);
}
