import { sql, type Selectable, type UpdateObject, type Updateable } from 'kysely';
import {
  isJobKind,
  JOB_KINDS,
  type JobKind,
  type JobRecord,
  type JobSpec,
  type NewJob,
} from '../jobs/job.js';
import { defaultLease, type JobLease } from '../jobs/lease.js';
import {
  JobNotHeldError,
  QueueFullError,
  type JobQueue,
  type JobsAvailable,
} from '../jobs/queue.js';
import { databaseDialect, type Db } from './database.js';
import { JOBS_CHANNEL, listenForJobs, type JobChannelListener } from './job-notifications.js';
import type { Database, JobsTable } from './schema.js';

function toRecord<K extends JobKind = JobKind>(row: Row): JobRecord<K> {
  if (!isJobKind(row.kind)) throw new Error(`Job ${row.id} is of an unknown kind '${row.kind}'`);
  // Written by enqueue from this kind's params type: the column holds nothing else.
  const spec = { kind: row.kind, params: JSON.parse(row.params) as unknown } as JobSpec<K>;
  return {
    ...spec,
    id: row.id,
    publicId: row.public_id,
    ownerId: row.owner_id,
    status: row.status,
    percent: row.percent,
    output: row.output,
    error: row.error,
    attempts: row.attempts,
    maxAttempts: row.max_attempts,
    runAfter: row.run_after,
    dedupeKey: row.dedupe_key,
    createdAt: row.created_at,
    queueOrder: row.queue_order,
    remotePrompt:
      row.prompt_server !== null && row.prompt_id !== null && row.prompt_client_id !== null
        ? { server: row.prompt_server, promptId: row.prompt_id, clientId: row.prompt_client_id }
        : null,
    ...(row.notice !== null && { notice: row.notice }),
  };
}

/** No remote prompt: what finishing, failing and retrying a job write. */
const NO_PROMPT = { prompt_server: null, prompt_id: null, prompt_client_id: null } as const;

/** No lease and nothing waited for: what every way out of 'in_progress' writes. */
const NO_LEASE = { lease_holder: null, lease_expires_at: null, notice: null } as const;

/** The text of a job that was interrupted (restart, lost process) on its last attempt. */
const INTERRUPTED_TOO_OFTEN = 'Interrupted too many times';

const COLUMNS = [
  'id',
  'public_id',
  'owner_id',
  'kind',
  'status',
  'percent',
  'params',
  'output',
  'error',
  'attempts',
  'max_attempts',
  'run_after',
  'dedupe_key',
  'created_at',
  'queue_order',
  'prompt_server',
  'prompt_id',
  'prompt_client_id',
  'notice',
] as const;

/** A row as the queries select it: the COLUMNS. */
type Row = Pick<Selectable<JobsTable>, (typeof COLUMNS)[number]>;

export interface JobQueueOptions {
  /** This process's holder name and lease term; default: a fresh holder, the default term. */
  lease?: JobLease;
  /**
   * PostgreSQL: the database URL for the dedicated LISTEN connection, so this process hears
   * what others queue. Unset: only its own changes wake it (and the runner's poll).
   */
  listenUrl?: string;
}

/** Old SQL: a row claimed before leases existed counts as expired. */
const leaseExpired = (stamp: string) =>
  sql<boolean>`(lease_expires_at is null or lease_expires_at < ${stamp})`;

/**
 * The job queue on the jobs table, on SQLite or PostgreSQL: one method per query, every state
 * change one statement (or one transaction). The claim differs per dialect: SQLite runs one
 * writer at a time, PostgreSQL takes the row with FOR UPDATE SKIP LOCKED (docs/scale-out.md).
 */
export function createJobQueue(db: Db, options: JobQueueOptions = {}): JobQueue {
  const lease = options.lease ?? defaultLease();
  const postgres = databaseDialect(db) === 'postgres';
  const watchers = new Set<JobsAvailable>();
  let channel: Promise<JobChannelListener> | undefined;

  const wakeWatchers = (kind: JobKind) => {
    for (const watcher of watchers) watcher(kind);
  };

  /**
   * Says jobs of a kind may be claimable: to this process's watchers (`here`), and on
   * PostgreSQL to every other process by NOTIFY. The payload names the holder, so a process
   * does not hear its own announcements twice. A failed NOTIFY costs others a poll, no more.
   */
  const announce = async (kind: JobKind, here = true) => {
    if (here) queueMicrotask(() => wakeWatchers(kind));
    if (!postgres) return;
    await sql`select pg_notify(${JOBS_CHANNEL}, ${`${kind} ${lease.holder}`})`
      .execute(db)
      .catch((error: unknown) =>
        process.emitWarning(`Job queue: NOTIFY failed (${String(error)})`),
      );
  };

  const heard = (payload: string) => {
    const [kind, holder] = payload.split(' ', 2);
    if (holder !== lease.holder && kind !== undefined && isJobKind(kind)) wakeWatchers(kind);
  };

  /** A write to a running job, taking effect only while this holder holds it. */
  const whileHeld = (id: number, values: UpdateObject<Database, 'jobs'>) =>
    db
      .updateTable('jobs')
      .set(values)
      .where('id', '=', id)
      .where('status', '=', 'in_progress')
      .where('lease_holder', '=', lease.holder);

  /** Ends this holder's run of a job with these values; undefined when it no longer holds it. */
  const settle = async (id: number, values: Updateable<JobsTable>, wake: boolean) => {
    const row = await whileHeld(id, { ...values, ...NO_LEASE })
      .returning(COLUMNS)
      .executeTakeFirst();
    if (!row) return undefined;
    const job = toRecord(row);
    await announce(job.kind, wake);
    return job;
  };

  /** Jobs put back in the queue (of whatever kinds) are announced, once per kind. */
  const announceRequeued = async (jobs: readonly JobRecord[]) => {
    const kinds = new Set(jobs.filter((job) => job.status === 'queued').map((job) => job.kind));
    for (const kind of kinds) await announce(kind);
  };

  const leaseUntil = (now: Date) => new Date(now.getTime() + lease.ms).toISOString();

  /**
   * The job to claim next: each owner not paused puts forward their first runnable job in their
   * own order (queue_order, then arrival); of those, the owner served longest ago (never served:
   * first) wins, so owners take turns. The heads are ranked once (a window over the runnable
   * jobs) rather than looked up per job, and "served" is one index lookup per owner (0015's
   * jobs_owner_served): at 200 owners with 50 queued jobs each, a claim costs milliseconds.
   * `locking` is PostgreSQL's row lock clause.
   */
  const nextJob = (kind: JobKind, stamp: string, locking = sql``) => sql<number>`
    select q.id from jobs q
    where q.status = 'queued'
      and q.id in (
        select ranked.id from (
          select o.id,
            row_number() over (partition by o.owner_id order by o.queue_order asc, o.id asc) as turn
          from jobs o
          where o.kind = ${kind} and o.status = 'queued' and o.run_after <= ${stamp}
            and not exists (
              select 1 from job_queue_pauses p where p.owner_id = o.owner_id and p.kind = o.kind
            )
        ) ranked
        where ranked.turn = 1
      )
    order by (
      select max(s.claimed_at) from jobs s where s.owner_id = q.owner_id and s.kind = q.kind
    ) asc nulls first, q.id asc
    limit 1
    ${locking}`;

  const claimSqlite = async <K extends JobKind>(kind: K, now: Date) => {
    const stamp = now.toISOString();
    // One UPDATE statement: SQLite runs it atomically, so two runners never take the same job.
    const row = await db
      .updateTable('jobs')
      .set((eb) => ({
        status: 'in_progress',
        attempts: eb('attempts', '+', 1),
        claimed_at: stamp,
        updated_at: stamp,
        lease_holder: lease.holder,
        lease_expires_at: leaseUntil(now),
        notice: null,
      }))
      .where('id', '=', sql<number>`(${nextJob(kind, stamp)})`)
      .where('status', '=', 'queued')
      .returning(COLUMNS)
      .executeTakeFirst();
    return row && toRecord<K>(row);
  };

  const claimPostgres = async <K extends JobKind>(kind: K, now: Date) => {
    const stamp = now.toISOString();
    // The same choice made under concurrency: FOR UPDATE SKIP LOCKED passes over a row another
    // claim is taking at this moment instead of waiting for it, and since only an owner's first
    // runnable job is a candidate, that owner is passed over too (their turn is being served)
    // rather than served twice. A row another claim took meanwhile is rechecked by PostgreSQL
    // (no longer 'queued') and skipped. One statement, so one transaction.
    const result = await sql<Row>`
      with next as (${nextJob(kind, stamp, sql`for update of q skip locked`)})
      update jobs set
        status = 'in_progress',
        attempts = jobs.attempts + 1,
        claimed_at = ${stamp},
        updated_at = ${stamp},
        lease_holder = ${lease.holder},
        lease_expires_at = ${leaseUntil(now)},
        notice = null
      from next
      where jobs.id = next.id
      returning ${sql.join(COLUMNS.map((column) => sql.ref(`jobs.${column}`)))}`.execute(db);
    const row = result.rows[0];
    return row && toRecord<K>(row);
  };

  return {
    lease,
    async enqueue<K extends JobKind>(job: NewJob<K>, now: Date) {
      const stamp = now.toISOString();
      const values = {
        public_id: job.publicId,
        owner_id: job.ownerId,
        kind: job.kind,
        status: 'queued' as const,
        percent: 0,
        attempts: 0,
        params: JSON.stringify(job.params),
        max_attempts: job.maxAttempts,
        run_after: stamp,
        dedupe_key: job.dedupeKey ?? null,
        created_at: stamp,
        updated_at: stamp,
      };
      const limit = job.maxLivePerOwner;
      // One INSERT … SELECT … WHERE: the count and the insert are one statement. SQLite runs it
      // alone, so parallel requests cannot slip past the limit; PostgreSQL's READ COMMITTED would
      // let two transactions count the same rows, so there the owner's enqueues of the kind take
      // turns on an advisory lock held to the end of the transaction.
      const insertOn = (on: Db) =>
        (limit === undefined
          ? on.insertInto('jobs').values(values)
          : on
              .insertInto('jobs')
              .columns(Object.keys(values) as (keyof typeof values)[])
              .expression(
                on
                  .selectNoFrom(
                    Object.entries(values).map(([column, value]) => sql.val(value).as(column)),
                  )
                  .where(
                    sql<boolean>`(select count(*) from jobs
                      where owner_id = ${job.ownerId} and kind = ${job.kind}
                        and status in ('queued', 'in_progress')) < ${limit}`,
                  ),
              )
        )
          .onConflict((oc) => oc.doNothing())
          .returning(COLUMNS)
          .executeTakeFirst();
      const turn = `tessera-jobs:${job.ownerId}:${job.kind}`;
      const row =
        postgres && limit !== undefined && !db.isTransaction
          ? await db.transaction().execute(async (trx) => {
              await sql`select pg_advisory_xact_lock(hashtext(${turn}))`.execute(trx);
              return insertOn(trx);
            })
          : await insertOn(db);
      if (row) {
        await announce(job.kind);
        return toRecord<K>(row);
      }
      // Nothing inserted: a live duplicate, or else the owner's queue is full.
      const duplicate =
        job.dedupeKey && (await this.findLive(job.ownerId, job.kind, job.dedupeKey));
      if (limit !== undefined && !duplicate) throw new QueueFullError(limit);
      return undefined;
    },
    async claim<K extends JobKind>(kind: K, now: Date) {
      const job = await (postgres ? claimPostgres(kind, now) : claimSqlite(kind, now));
      // A peer that lost the race for this owner's turn found nothing: it may try again now.
      if (job) await announce(kind, false);
      return job;
    },
    // The percent is kept when a job goes back to the queue (retry, restart, lost lease) and when
    // it is claimed again: it is the floor of what the job shows, never lowered (issue 23).
    async progress(id, percent, now) {
      await whileHeld(id, { percent, updated_at: now.toISOString() }).execute();
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
      ),
    fail: (id, error, now) =>
      settle(id, { status: 'error', error, ...NO_PROMPT, updated_at: now.toISOString() }, false),
    async requeueInterrupted(now) {
      const stamp = now.toISOString();
      const exhausted = await db
        .updateTable('jobs')
        .set({ status: 'error', error: INTERRUPTED_TOO_OFTEN, ...NO_LEASE, updated_at: stamp })
        .where('status', '=', 'in_progress')
        .whereRef('attempts', '>=', 'max_attempts')
        .returning(COLUMNS)
        .execute();
      const requeued = await db
        .updateTable('jobs')
        .set({ status: 'queued', run_after: stamp, ...NO_LEASE, updated_at: stamp })
        .where('status', '=', 'in_progress')
        .returning(COLUMNS)
        .execute();
      const jobs = [...exhausted, ...requeued].map((row) => toRecord(row));
      await announceRequeued(jobs);
      return jobs;
    },
    async renewLeases(ids, now) {
      if (ids.length === 0) return [];
      const rows = await db
        .updateTable('jobs')
        .set({ lease_expires_at: leaseUntil(now) })
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
      const rows = await db
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
        .execute();
      const jobs = rows.map((row) => toRecord(row)).sort((a, b) => a.id - b.id);
      await announceRequeued(jobs);
      return jobs;
    },
    async watch(onAvailable) {
      watchers.add(onAvailable);
      if (postgres && options.listenUrl !== undefined && !channel) {
        const url = options.listenUrl;
        // After a reconnect every kind may have jobs nobody announced to this process.
        channel = listenForJobs(url, heard, () => JOB_KINDS.forEach(wakeWatchers));
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
    async latest<K extends JobKind>(ownerId: number, kind: K) {
      const row = await db
        .selectFrom('jobs')
        .select(COLUMNS)
        .where('owner_id', '=', ownerId)
        .where('kind', '=', kind)
        .where('status', '!=', 'cancelled')
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirst();
      return row && toRecord<K>(row);
    },
    async list<K extends JobKind>(ownerId: number, kind: K, limit: number) {
      const rows = await db
        .selectFrom('jobs')
        .select(COLUMNS)
        .where('owner_id', '=', ownerId)
        .where('kind', '=', kind)
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
      return rows.map((row) => toRecord<K>(row));
    },
    async findLive<K extends JobKind>(ownerId: number, kind: K, dedupeKey: string) {
      const row = await db
        .selectFrom('jobs')
        .select(COLUMNS)
        .where('owner_id', '=', ownerId)
        .where('kind', '=', kind)
        .where('dedupe_key', '=', dedupeKey)
        .where('status', 'in', ['queued', 'in_progress'])
        .executeTakeFirst();
      return row && toRecord<K>(row);
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
    async reserveOutput(id, output) {
      const { numUpdatedRows } = await whileHeld(id, { output }).executeTakeFirst();
      // The new holder reserves a name of its own; a second name written here would be a copy.
      if (numUpdatedRows === 0n) throw new JobNotHeldError(id);
    },
    async liveOutputs(ownerId) {
      const rows = await db
        .selectFrom('jobs')
        .select('output')
        .where('owner_id', '=', ownerId)
        .where('status', 'in', ['queued', 'in_progress'])
        .where('output', 'is not', null)
        .execute();
      return new Set(rows.flatMap((row) => (row.output === null ? [] : [row.output])));
    },
    async cancelByKeyPrefix(ownerId, kind, prefix, now) {
      // Dedupe keys are written by the services (hd:<image>:<size>); LIKE needs its wildcards escaped.
      const pattern = `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      const rows = await db
        .updateTable('jobs')
        // A running job's process learns it at its next lease renewal, if not told at once.
        .set({ status: 'cancelled', ...NO_LEASE, updated_at: now.toISOString() })
        .where('owner_id', '=', ownerId)
        .where('kind', '=', kind)
        .where('status', 'in', ['queued', 'in_progress'])
        .where(sql<boolean>`dedupe_key like ${pattern} escape '\\'`)
        .returning(COLUMNS)
        .execute();
      return rows.map((row) => toRecord(row));
    },
    async moveToTop<K extends JobKind>(ownerId: number, kind: K, publicId: string, now: Date) {
      // One statement: the rank is one below the owner's lowest queued rank at this very moment,
      // and only a job still queued moves (a runner claiming it meanwhile wins).
      await db
        .updateTable('jobs')
        .set({
          queue_order: sql<number>`(select min(t.queue_order) from jobs t
            where t.owner_id = ${ownerId} and t.kind = ${kind} and t.status = 'queued') - 1`,
          updated_at: now.toISOString(),
        })
        .where('owner_id', '=', ownerId)
        .where('kind', '=', kind)
        .where('public_id', '=', publicId)
        .where('status', '=', 'queued')
        .execute();
      return this.findByPublicId<K>(ownerId, kind, publicId);
    },
    async pause(ownerId, kind, now) {
      await db
        .insertInto('job_queue_pauses')
        .values({ owner_id: ownerId, kind, paused_at: now.toISOString() })
        .onConflict((oc) => oc.doNothing())
        .execute();
    },
    async resume(ownerId, kind) {
      await db
        .deleteFrom('job_queue_pauses')
        .where('owner_id', '=', ownerId)
        .where('kind', '=', kind)
        .execute();
      await announce(kind);
    },
    async isPaused(ownerId, kind) {
      const row = await db
        .selectFrom('job_queue_pauses')
        .select('owner_id')
        .where('owner_id', '=', ownerId)
        .where('kind', '=', kind)
        .executeTakeFirst();
      return row !== undefined;
    },
    async cancel<K extends JobKind>(ownerId: number, kind: K, publicId: string, now: Date) {
      // One statement: a runner claiming the job at the same moment either wins or finds it gone.
      await db
        .updateTable('jobs')
        .set({ status: 'cancelled', updated_at: now.toISOString() })
        .where('owner_id', '=', ownerId)
        .where('kind', '=', kind)
        .where('public_id', '=', publicId)
        .where('status', '=', 'queued')
        .execute();
      // The owner's next job (and a place under their limit) is free for others' runners.
      await announce(kind, false);
      return this.findByPublicId<K>(ownerId, kind, publicId);
    },
    async findByPublicId<K extends JobKind>(ownerId: number, kind: K, publicId: string) {
      const row = await db
        .selectFrom('jobs')
        .select(COLUMNS)
        .where('owner_id', '=', ownerId)
        .where('kind', '=', kind)
        .where('public_id', '=', publicId)
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirst();
      return row && toRecord<K>(row);
    },
    async nextRunAfter(kind) {
      const row = await db
        .selectFrom('jobs')
        .select((eb) => eb.fn.min('run_after').as('next'))
        .where('kind', '=', kind)
        .where('status', '=', 'queued')
        .executeTakeFirst();
      return row?.next ?? undefined;
    },
  };
}

/** Kept for code written before the queue spoke PostgreSQL too. */
export const createSqliteJobQueue = createJobQueue;
