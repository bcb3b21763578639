import type { JobRecord } from '../jobs/job.js';
import { defaultLease, type JobLease } from '../jobs/lease.js';
import type { JobQueue, OwnerQueue } from '../jobs/queue.js';
import type { JobEventsOf } from '../services/webhook-ports.js';
import { databaseDialect, type Db } from './database.js';
import { createAnnouncer } from './job-queue/announcer.js';
import { createClaims } from './job-queue/claims.js';
import type { QueueContext } from './job-queue/context.js';
import { createOwnerQueue } from './job-queue/owner-page.js';
import { createRuns } from './job-queue/runs.js';

export interface JobQueueOptions {
  /** This process's holder name and lease term; default: a fresh holder, the default term. */
  lease?: JobLease;
  /**
   * PostgreSQL: the database URL for the dedicated LISTEN connection, so this process hears
   * what others queue. Unset: only its own changes wake it (and the runner's poll).
   */
  listenUrl?: string;
  /**
   * The webhook events a job's end (finished, or failed for good) makes: recorded as deliveries
   * in the same transaction as the end (an outbox, issue 30 part 3). Unset: none.
   */
  events?: JobEventsOf<JobRecord>;
}

/** The jobs table as both ports: the runner's protocol and the owners' queue page. */
export type StoredJobQueue = JobQueue & OwnerQueue;

/**
 * The job queue on the jobs table, on SQLite or PostgreSQL: one method per query, every state
 * change one statement (or one transaction). The parts (job-queue/) share the database, the
 * lease, and the announcements that wake runners: an owner's resume or cancel wakes them too.
 */
export function createJobQueue(db: Db, options: JobQueueOptions = {}): StoredJobQueue {
  const lease = options.lease ?? defaultLease();
  const postgres = databaseDialect(db) === 'postgres';
  const announcer = createAnnouncer(db, {
    postgres,
    holder: lease.holder,
    listenUrl: options.listenUrl,
  });
  const context: QueueContext = {
    db,
    lease,
    postgres,
    announce: announcer.announce,
    ...(options.events && { events: options.events }),
  };
  const owner = createOwnerQueue(context);
  return {
    lease,
    watch: announcer.watch,
    ...createClaims(context, owner.findLive),
    ...createRuns(context, announcer.announceRequeued),
    ...owner,
  };
}

/** Kept for code written before the queue spoke PostgreSQL too. */
export const createSqliteJobQueue = createJobQueue;
