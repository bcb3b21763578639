import { sql, type UpdateObject, type Updateable } from 'kysely';
import { isJobKind, type JobRecord } from '../../jobs/job.js';
import { JobNotHeldError, type JobQueue } from '../../jobs/queue.js';
import type { Db } from '../database.js';
import type { Database, JobsTable } from '../schema.js';
import { recordWebhookEvents } from '../webhook-outbox.js';
import type { Announcer } from './announcer.js';
import type { QueueContext } from './context.js';
import { COLUMNS, INTERRUPTED_TOO_OFTEN, NO_LEASE, NO_PROMPT, toRecord } from './rows.js';

/** A running job's leases and writes: everything of the runner's port but getting jobs in and out. */
export type Runs = Omit<JobQueue, 'lease' | 'enqueue' | 'claim' | 'nextRunAfter' | 'watch'>;

/** Old SQL: a row claimed before leases existed counts as expired. */
const leaseExpired = (stamp: string) =>
  sql<boolean>`(lease_expires_at is null or lease_expires_at < ${stamp})`;

export function createRuns(
  { db, lease, announce, events }: QueueContext,
  announceRequeued: Announcer['announceRequeued'],
): Runs {
  /** A write to a running job, taking effect only while this holder holds it. */
  const whileHeld = (id: number, values: UpdateObject<Database, 'jobs'>, on: Db = db) =>
    on
      .updateTable('jobs')
      .set(values)
      .where('id', '=', id)
      .where('status', '=', 'in_progress')
      .where('lease_holder', '=', lease.holder);

  /**
   * Runs `write` and records the webhook events of the jobs it ended, in one transaction (the
   * outbox: an end and its events are saved together or not at all).
   */
  const withEvents = async (
    now: Date,
    write: (on: Db) => Promise<JobRecord[]>,
  ): Promise<JobRecord[]> => {
    if (!events) return write(db);
    const record = async (on: Db) => {
      const jobs = await write(on);
      const ended = jobs.filter((job) => job.status === 'finished' || job.status === 'error');
      await recordWebhookEvents(
        on,
        ended.flatMap((job) => events(job, now)),
        now,
      );
      return jobs;
    };
    return db.isTransaction ? record(db) : db.transaction().execute(record);
  };

  /** Ends this holder's run of a job with these values; undefined when it no longer holds it. */
  const settle = async (id: number, values: Updateable<JobsTable>, wake: boolean, now: Date) => {
    const [job] = await withEvents(now, async (on) => {
      const row = await whileHeld(id, { ...values, ...NO_LEASE }, on)
        .returning(COLUMNS)
        .executeTakeFirst();
      return row ? [toRecord(row)] : [];
    });
    if (!job) return undefined;
    await announce(job.kind, wake);
    return job;
  };

  return {
    async renewLeases(ids, now) {
      if (ids.length === 0) return [];
      const rows = await db
        .updateTable('jobs')
        .set({ lease_expires_at: new Date(now.getTime() + lease.ms).toISOString() })
        .where('id', 'in', ids)
        .where('status', '=', 'in_progress')
        .where('lease_holder', '=', lease.holder)
        .returning('id')
        .execute();
      return rows.map((row) => row.id);
    },
    async expireLeases(now) {
      const stamp = now.toISOString();
      // One statement: of several processes sweeping at once, each row goes to exactly one
      // (the others find it changed and pass it by). The attempt the lost run used stays counted.
      const out = sql<boolean>`attempts >= max_attempts`;
      const expired = await withEvents(now, async (on) =>
        (
          await on
            .updateTable('jobs')
            .set({
              status: sql`case when ${out} then 'error' else 'queued' end`,
              error: sql`case when ${out} then ${INTERRUPTED_TOO_OFTEN} else error end`,
              run_after: sql`case when ${out} then run_after else ${stamp} end`,
              ...NO_LEASE,
              updated_at: stamp,
            })
            .where('status', '=', 'in_progress')
            .where(leaseExpired(stamp))
            .returning(COLUMNS)
            .execute()
        ).map((row) => toRecord(row)),
      );
      const jobs = expired.sort((a, b) => a.id - b.id);
      await announceRequeued(jobs);
      return jobs;
    },
    async requeueInterrupted(now) {
      const stamp = now.toISOString();
      const exhausted = await withEvents(now, async (on) =>
        (
          await on
            .updateTable('jobs')
            .set({ status: 'error', error: INTERRUPTED_TOO_OFTEN, ...NO_LEASE, updated_at: stamp })
            .where('status', '=', 'in_progress')
            .whereRef('attempts', '>=', 'max_attempts')
            .returning(COLUMNS)
            .execute()
        ).map((row) => toRecord(row)),
      );
      const requeued = await db
        .updateTable('jobs')
        .set({ status: 'queued', run_after: stamp, ...NO_LEASE, updated_at: stamp })
        .where('status', '=', 'in_progress')
        .returning(COLUMNS)
        .execute();
      const jobs = [...exhausted, ...requeued.map((row) => toRecord(row))];
      await announceRequeued(jobs);
      return jobs;
    },
    // The percent is kept when a job goes back to the queue (retry, restart, lost lease) and when
    // it is claimed again: it is the floor of what the job shows, never lowered (issue 23).
    async progress(id, percent, now) {
      await whileHeld(id, { percent, updated_at: now.toISOString() }).execute();
    },
    async reserveOutput(id, output) {
      const { numUpdatedRows } = await whileHeld(id, { output }).executeTakeFirst();
      // The new holder reserves a name of its own; a second name written here would be a copy.
      if (numUpdatedRows === 0n) throw new JobNotHeldError(id);
    },
    async rememberPrompt(id, prompt) {
      await whileHeld(id, {
        prompt_server: prompt.server,
        prompt_id: prompt.promptId,
        prompt_client_id: prompt.clientId,
      }).execute();
    },
    async noteWaiting(id, notice) {
      await whileHeld(id, { notice }).execute();
    },
    finish: (id, output, now) =>
      settle(
        id,
        {
          status: 'finished',
          percent: 100,
          output,
          error: null,
          ...NO_PROMPT,
          updated_at: now.toISOString(),
        },
        false,
        now,
      ),
    retry: (id, error, runAfter, now) =>
      settle(
        id,
        {
          status: 'queued',
          error,
          run_after: runAfter.toISOString(),
          // The failed attempt's prompt is over: the retry queues its own.
          ...NO_PROMPT,
          updated_at: now.toISOString(),
        },
        true,
        now,
      ),
    fail: (id, error, now) =>
      settle(
        id,
        { status: 'error', error, ...NO_PROMPT, updated_at: now.toISOString() },
        false,
        now,
      ),
    async release(id, now) {
      // The attempt is not counted: the run was stopped (shutdown), it did not fail.
      const row = await whileHeld(id, {
        status: 'queued',
        attempts: sql<number>`attempts - 1`,
        ...NO_LEASE,
        updated_at: now.toISOString(),
      })
        .returning('kind')
        .executeTakeFirst();
      // Another process may take it at once, not after its next poll.
      if (row && isJobKind(row.kind)) await announce(row.kind);
    },
  };
}
