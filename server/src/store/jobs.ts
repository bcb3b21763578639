import { sql, type Selectable, type Updateable } from 'kysely';
import type { Db } from './database.js';
import type { JobsTable } from './schema.js';

/** 'cancelled' is the owner's doing, and only a queued job can get there. */
export type JobStatus = JobsTable['status'];

export interface JobRecord {
  id: number;
  publicId: string;
  ownerId: number;
  kind: string;
  status: JobStatus;
  percent: number;
  params: unknown;
  output: string | null;
  error: string | null;
  attempts: number;
  maxAttempts: number;
  runAfter: string;
  dedupeKey: string | null;
  createdAt: string;
  /** Rank among the owner's queued jobs: lower runs first, ties in arrival order. */
  queueOrder: number;
  /** The prompt the job queued on a remote image server and has not seen to its end. */
  remotePrompt: JobRemotePrompt | null;
}

/** A prompt queued on a remote image server (ComfyUI): where, its id, its websocket client id. */
export interface JobRemotePrompt {
  server: string;
  promptId: string;
  clientId: string;
}

export interface NewJob {
  publicId: string;
  ownerId: number;
  kind: string;
  params: unknown;
  maxAttempts: number;
  dedupeKey?: string;
  /** The owner may have at most this many live (queued or running) jobs of the kind. */
  maxLivePerOwner?: number;
}

/** The owner already has as many live jobs of this kind as the queue takes. */
export class QueueFullError extends Error {
  constructor(readonly limit: number) {
    super(`At most ${limit} jobs may wait at once`);
  }
}

/** The jobs table: one method per query. Every state change is a single statement. */
export interface JobRepository {
  /**
   * Undefined when a live job with the same dedupe key exists; throws QueueFullError when the
   * owner's live jobs of the kind reached `maxLivePerOwner` (counted in the same statement).
   */
  insert(job: NewJob, now: Date): Promise<JobRecord | undefined>;
  /**
   * Takes the next runnable job of a kind and marks it in progress, atomically. Owners take turns
   * (round-robin: one owner's many jobs do not starve another's one); within an owner's turn their
   * own order counts (queue_order, then arrival). A paused owner's jobs are passed over.
   */
  claim(kind: string, now: Date): Promise<JobRecord | undefined>;
  progress(id: number, percent: number, now: Date): Promise<void>;
  finish(id: number, output: string, now: Date): Promise<JobRecord>;
  /** Back to the queue after a failure, to run again after `runAfter`. */
  retry(id: number, error: string, runAfter: Date, now: Date): Promise<JobRecord>;
  fail(id: number, error: string, now: Date): Promise<JobRecord>;
  /** After a restart: jobs left in progress go back to the queue (or fail, out of attempts). */
  requeueInterrupted(now: Date): Promise<JobRecord[]>;
  /** Puts a job whose run was stopped (shutdown) back in the queue, the attempt not counted. */
  release(id: number, now: Date): Promise<void>;
  /** The owner's latest job of a kind, cancelled ones left out. */
  latest(ownerId: number, kind: string): Promise<JobRecord | undefined>;
  /** The owner's jobs of a kind, newest first. */
  list(ownerId: number, kind: string, limit: number): Promise<JobRecord[]>;
  /** The owner's latest job with this public id (the id the client knows it by). */
  findByPublicId(ownerId: number, kind: string, publicId: string): Promise<JobRecord | undefined>;
  /** The queued or running job holding a dedupe key. */
  findLive(ownerId: number, kind: string, dedupeKey: string): Promise<JobRecord | undefined>;
  /**
   * Puts the owner's queued job ahead of their other queued jobs; the job as it is now, or
   * undefined if unknown (a job that is not queued is left as it is).
   */
  moveToTop(
    ownerId: number,
    kind: string,
    publicId: string,
    now: Date,
  ): Promise<JobRecord | undefined>;
  /** Holds back the owner's queued jobs of the kind (running ones go on); idempotent. */
  pause(ownerId: number, kind: string, now: Date): Promise<void>;
  /** Lets the owner's queued jobs of the kind run again; idempotent. */
  resume(ownerId: number, kind: string): Promise<void>;
  isPaused(ownerId: number, kind: string): Promise<boolean>;
  /** Cancels the owner's job if it is still queued; the job as it is now, or undefined if unknown. */
  cancel(
    ownerId: number,
    kind: string,
    publicId: string,
    now: Date,
  ): Promise<JobRecord | undefined>;
  nextRunAfter(kind: string): Promise<string | undefined>;
  /**
   * Notes the output name a running job is about to write, before it writes it: a rerun after
   * a crash writes the same name again (overwriting, never adding a second file).
   */
  reserveOutput(id: number, output: string): Promise<void>;
  /**
   * Notes the prompt a running job queued on a remote server: a rerun after a restart picks it
   * up there. Cleared when the job finishes, fails, or goes back to the queue after a failure.
   */
  rememberPrompt(id: number, prompt: JobRemotePrompt): Promise<void>;
  /** The output names that live (queued or running) jobs of the owner have reserved. */
  liveOutputs(ownerId: number): Promise<Set<string>>;
  /** Cancels the owner's live jobs whose dedupe key starts with `prefix`; their ids. */
  cancelByKeyPrefix(ownerId: number, kind: string, prefix: string, now: Date): Promise<number[]>;
}

function toRecord(row: Row): JobRecord {
  return {
    id: row.id,
    publicId: row.public_id,
    ownerId: row.owner_id,
    kind: row.kind,
    status: row.status,
    percent: row.percent,
    params: JSON.parse(row.params) as unknown,
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

export function createJobRepository(db: Db): JobRepository {
  const update = (id: number, values: Updateable<JobsTable>) =>
    db
      .updateTable('jobs')
      .set(values)
      .where('id', '=', id)
      .returning(COLUMNS)
      .executeTakeFirstOrThrow()
      .then(toRecord);

  return {
    async insert(job, now) {
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
      if (row) return toRecord(row);
      // Nothing inserted: a live duplicate, or else the owner's queue is full.
      const duplicate =
        job.dedupeKey && (await this.findLive(job.ownerId, job.kind, job.dedupeKey));
      if (limit !== undefined && !duplicate) throw new QueueFullError(limit);
      return undefined;
    },
    async claim(kind, now) {
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
      return row && toRecord(row);
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
    async latest(ownerId, kind) {
      const row = await db
        .selectFrom('jobs')
        .select(COLUMNS)
        .where('owner_id', '=', ownerId)
        .where('kind', '=', kind)
        .where('status', '!=', 'cancelled')
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirst();
      return row && toRecord(row);
    },
    async list(ownerId, kind, limit) {
      const rows = await db
        .selectFrom('jobs')
        .select(COLUMNS)
        .where('owner_id', '=', ownerId)
        .where('kind', '=', kind)
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
      return rows.map(toRecord);
    },
    async findLive(ownerId, kind, dedupeKey) {
      const row = await db
        .selectFrom('jobs')
        .select(COLUMNS)
        .where('owner_id', '=', ownerId)
        .where('kind', '=', kind)
        .where('dedupe_key', '=', dedupeKey)
        .where('status', 'in', ['queued', 'in_progress'])
        .executeTakeFirst();
      return row && toRecord(row);
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
    async moveToTop(ownerId, kind, publicId, now) {
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
      return this.findByPublicId(ownerId, kind, publicId);
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
    async cancel(ownerId, kind, publicId, now) {
      // One statement: a runner claiming the job at the same moment either wins or finds it gone.
      await db
        .updateTable('jobs')
        .set({ status: 'cancelled', updated_at: now.toISOString() })
        .where('owner_id', '=', ownerId)
        .where('kind', '=', kind)
        .where('public_id', '=', publicId)
        .where('status', '=', 'queued')
        .execute();
      return this.findByPublicId(ownerId, kind, publicId);
    },
    async findByPublicId(ownerId, kind, publicId) {
      const row = await db
        .selectFrom('jobs')
        .select(COLUMNS)
        .where('owner_id', '=', ownerId)
        .where('kind', '=', kind)
        .where('public_id', '=', publicId)
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirst();
      return row && toRecord(row);
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
