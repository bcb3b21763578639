import { sql, type Selectable, type Updateable } from 'kysely';
import { isJobKind, type JobKind, type JobRecord, type JobSpec, type NewJob } from '../jobs/job.js';
import { QueueFullError, type JobQueue } from '../jobs/queue.js';
import type { Db } from './database.js';
import type { JobsTable } from './schema.js';

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
  };
}

/** No remote prompt: what finishing, failing and retrying a job write. */
const NO_PROMPT = { prompt_server: null, prompt_id: null, prompt_client_id: null } as const;

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
] as const;

/** A row as the queries select it: the COLUMNS. */
type Row = Pick<Selectable<JobsTable>, (typeof COLUMNS)[number]>;

/** The job queue on the jobs table: one method per query, every state change one statement. */
export function createSqliteJobQueue(db: Db): JobQueue {
  const update = (id: number, values: Updateable<JobsTable>) =>
    db
      .updateTable('jobs')
      .set(values)
      .where('id', '=', id)
      .returning(COLUMNS)
      .executeTakeFirstOrThrow()
      .then(toRecord);

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
      // One INSERT … SELECT … WHERE: the count and the insert are one atomic statement, so
      // parallel requests cannot slip past the limit.
      const insert =
        limit === undefined
          ? db.insertInto('jobs').values(values)
          : db
              .insertInto('jobs')
              .columns(Object.keys(values) as (keyof typeof values)[])
              .expression(
                db
                  .selectNoFrom(
                    Object.entries(values).map(([column, value]) => sql.val(value).as(column)),
                  )
                  .where(
                    sql<boolean>`(select count(*) from jobs
                      where owner_id = ${job.ownerId} and kind = ${job.kind}
                        and status in ('queued', 'in_progress')) < ${limit}`,
                  ),
              );
      const row = await insert
        .onConflict((oc) => oc.doNothing())
        .returning(COLUMNS)
        .executeTakeFirst();
      if (row) return toRecord<K>(row);
      // Nothing inserted: a live duplicate, or else the owner's queue is full.
      const duplicate =
        job.dedupeKey && (await this.findLive(job.ownerId, job.kind, job.dedupeKey));
      if (limit !== undefined && !duplicate) throw new QueueFullError(limit);
      return undefined;
    },
    async claim<K extends JobKind>(kind: K, now: Date) {
      const stamp = now.toISOString();
      // Each owner not paused puts forward their first runnable job in their own order; the
      // owner served longest ago wins, so owners take turns. One UPDATE statement: SQLite runs it
      // atomically, so two runners never take the same job.
      const next = sql<number>`(
        select q.id from jobs q
        where q.kind = ${kind} and q.status = 'queued' and q.run_after <= ${stamp}
          and not exists (
            select 1 from job_queue_pauses p where p.owner_id = q.owner_id and p.kind = q.kind
          )
          and q.id = (
            select o.id from jobs o
            where o.owner_id = q.owner_id and o.kind = q.kind and o.status = 'queued' and o.run_after <= ${stamp}
            order by o.queue_order asc, o.id asc
            limit 1
          )
        order by (
          select max(s.claimed_at) from jobs s where s.owner_id = q.owner_id and s.kind = q.kind
        ) asc, q.id asc
        limit 1
      )`;
      const row = await db
        .updateTable('jobs')
        .set((eb) => ({
          status: 'in_progress',
          percent: 0,
          attempts: eb('attempts', '+', 1),
          claimed_at: stamp,
          updated_at: stamp,
        }))
        .where('id', '=', next)
        .where('status', '=', 'queued')
        .returning(COLUMNS)
        .executeTakeFirst();
      return row && toRecord<K>(row);
    },
    async progress(id, percent, now) {
      await db
        .updateTable('jobs')
        .set({ percent, updated_at: now.toISOString() })
        .where('id', '=', id)
        .where('status', '=', 'in_progress')
        .execute();
    },
    finish: (id, output, now) =>
      update(id, {
        status: 'finished',
        percent: 100,
        output,
        error: null,
        ...NO_PROMPT,
        updated_at: now.toISOString(),
      }),
    retry: (id, error, runAfter, now) =>
      update(id, {
        status: 'queued',
        percent: 0,
        error,
        run_after: runAfter.toISOString(),
        // The failed attempt's prompt is over: the retry queues its own.
        ...NO_PROMPT,
        updated_at: now.toISOString(),
      }),
    fail: (id, error, now) =>
      update(id, { status: 'error', error, ...NO_PROMPT, updated_at: now.toISOString() }),
    async requeueInterrupted(now) {
      const stamp = now.toISOString();
      const exhausted = await db
        .updateTable('jobs')
        .set({ status: 'error', error: 'Interrupted too many times', updated_at: stamp })
        .where('status', '=', 'in_progress')
        .whereRef('attempts', '>=', 'max_attempts')
        .returning(COLUMNS)
        .execute();
      const requeued = await db
        .updateTable('jobs')
        .set({ status: 'queued', percent: 0, run_after: stamp, updated_at: stamp })
        .where('status', '=', 'in_progress')
        .returning(COLUMNS)
        .execute();
      return [...exhausted, ...requeued].map(toRecord);
    },
    async release(id, now) {
      await db
        .updateTable('jobs')
        .set((eb) => ({
          status: 'queued',
          percent: 0,
          attempts: eb('attempts', '-', 1),
          updated_at: now.toISOString(),
        }))
        .where('id', '=', id)
        .where('status', '=', 'in_progress')
        .execute();
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
      await db
        .updateTable('jobs')
        .set({
          prompt_server: prompt.server,
          prompt_id: prompt.promptId,
          prompt_client_id: prompt.clientId,
        })
        .where('id', '=', id)
        .execute();
    },
    async reserveOutput(id, output) {
      await db.updateTable('jobs').set({ output }).where('id', '=', id).execute();
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
        .set({ status: 'cancelled', updated_at: now.toISOString() })
        .where('owner_id', '=', ownerId)
        .where('kind', '=', kind)
        .where('status', 'in', ['queued', 'in_progress'])
        .where(sql<boolean>`dedupe_key like ${pattern} escape '\\'`)
        .returning('id')
        .execute();
      return rows.map((row) => row.id);
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
