import { sql } from 'kysely';
import type { JobKind, NewJob } from '../../jobs/job.js';
import { QueueFullError, type JobQueue, type OwnerQueue } from '../../jobs/queue.js';
import type { Db } from '../database.js';
import { QUEUE_QUOTA_COLUMNS } from '../quotas.js';
import type { QueueContext } from './context.js';
import { COLUMNS, toRecord, type Row } from './rows.js';

/** How jobs get in and out of the queue: enqueue, claim, and when the next one may run. */
export type Claims = Pick<JobQueue, 'enqueue' | 'claim' | 'nextRunAfter'>;

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

/**
 * The claim differs per dialect: SQLite runs one writer at a time, PostgreSQL takes the row with
 * FOR UPDATE SKIP LOCKED (docs/scale-out.md). `findLive` tells a duplicate from a full queue.
 */
export function createClaims(
  { db, lease, postgres, announce }: QueueContext,
  findLive: OwnerQueue['findLive'],
): Claims {
  const leaseUntil = (now: Date) => new Date(now.getTime() + lease.ms).toISOString();

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
      // The owner's own quota, else the admin-set default, else the policy's (issue 29, part 3):
      // read inside the statement that counts, so an enqueue costs no extra query.
      const column = job.ownerQuota && QUEUE_QUOTA_COLUMNS[job.ownerQuota];
      const limitOf = (ownerId: number) =>
        column === undefined
          ? sql<number>`${limit}`
          : sql<number>`coalesce(
              (select ${sql.ref(`users.${column}`)} from users where users.id = ${ownerId}),
              (select ${sql.ref(`quota_defaults.${column}`)} from quota_defaults
                where quota_defaults.id = 1),
              ${limit})`;
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
                        and status in ('queued', 'in_progress')) < ${limitOf(job.ownerId)}`,
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
      const duplicate = job.dedupeKey && (await findLive(job.ownerId, job.kind, job.dedupeKey));
      if (limit !== undefined && !duplicate) {
        const { rows } = await sql<{
          n: number | string;
        }>`select ${limitOf(job.ownerId)} as n`.execute(db);
        throw new QueueFullError(Number(rows[0]?.n ?? limit));
      }
      return undefined;
    },
    async claim<K extends JobKind>(kind: K, now: Date) {
      const job = await (postgres ? claimPostgres(kind, now) : claimSqlite(kind, now));
      // A peer that lost the race for this owner's turn found nothing: it may try again now.
      if (job) await announce(kind, false);
      return job;
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
