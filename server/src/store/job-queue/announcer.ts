import { sql } from 'kysely';
import { isJobKind, JOB_KINDS, type JobKind, type JobRecord } from '../../jobs/job.js';
import type { JobQueue, JobsAvailable } from '../../jobs/queue.js';
import type { Db } from '../database.js';
import { JOBS_CHANNEL, listenForJobs, type JobChannelListener } from '../job-notifications.js';

/** Who hears that jobs may be claimable: this process's watchers and, on PostgreSQL, the others. */
export interface Announcer {
  /**
   * Says jobs of a kind may be claimable: to this process's watchers (`here`), and on
   * PostgreSQL to every other process by NOTIFY. A failed NOTIFY costs others a poll, no more.
   */
  announce(kind: JobKind, here?: boolean): Promise<void>;
  /** Jobs put back in the queue (of whatever kinds) are announced, once per kind. */
  announceRequeued(jobs: readonly JobRecord[]): Promise<void>;
  watch: JobQueue['watch'];
}

export interface AnnouncerOptions {
  postgres: boolean;
  /** This process's lease holder: the NOTIFY payload names it, so it does not hear itself. */
  holder: string;
  /** PostgreSQL: where the dedicated LISTEN connection connects; unset, nothing is heard. */
  listenUrl?: string | undefined;
}

export function createAnnouncer(db: Db, options: AnnouncerOptions): Announcer {
  const { postgres, holder, listenUrl } = options;
  const watchers = new Set<JobsAvailable>();
  let channel: Promise<JobChannelListener> | undefined;

  const wakeWatchers = (kind: JobKind) => {
    for (const watcher of watchers) watcher(kind);
  };

  const heard = (payload: string) => {
    const [kind, from] = payload.split(' ', 2);
    if (from !== holder && kind !== undefined && isJobKind(kind)) wakeWatchers(kind);
  };

  const announce = async (kind: JobKind, here = true) => {
    if (here) queueMicrotask(() => wakeWatchers(kind));
    if (!postgres) return;
    await sql`select pg_notify(${JOBS_CHANNEL}, ${`${kind} ${holder}`})`
      .execute(db)
      .catch((error: unknown) =>
        process.emitWarning(`Job queue: NOTIFY failed (${String(error)})`),
      );
  };

  return {
    announce,
    async announceRequeued(jobs) {
      const kinds = new Set(jobs.filter((job) => job.status === 'queued').map((job) => job.kind));
      for (const kind of kinds) await announce(kind);
    },
    async watch(onAvailable) {
      watchers.add(onAvailable);
      if (postgres && listenUrl !== undefined && !channel) {
        // After a reconnect every kind may have jobs nobody announced to this process.
        channel = listenForJobs(listenUrl, heard, () => JOB_KINDS.forEach(wakeWatchers));
      }
      await channel;
      return async () => {
        watchers.delete(onAvailable);
        if (watchers.size > 0 || !channel) return;
        const closing = channel;
        channel = undefined;
        await (await closing).close();
      };
    },
  };
}
