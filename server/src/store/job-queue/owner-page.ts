import { sql } from 'kysely';
import type { JobKind } from '../../jobs/job.js';
import type { OwnerQueue } from '../../jobs/queue.js';
import type { QueueContext } from './context.js';
import { COLUMNS, NO_LEASE, toRecord } from './rows.js';

/** The owner's side of the jobs table: their jobs, and cancel, move to top, pause, resume. */
export function createOwnerQueue({ db, announce }: QueueContext): OwnerQueue {
  const ownersJobs = <K extends JobKind>(ownerId: number, kind: K) =>
    db.selectFrom('jobs').select(COLUMNS).where('owner_id', '=', ownerId).where('kind', '=', kind);

  const findByPublicId = async <K extends JobKind>(ownerId: number, kind: K, publicId: string) => {
    const row = await ownersJobs(ownerId, kind)
      .where('public_id', '=', publicId)
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row && toRecord<K>(row);
  };

  return {
    async list<K extends JobKind>(ownerId: number, kind: K, limit: number) {
      const rows = await ownersJobs(ownerId, kind).orderBy('id', 'desc').limit(limit).execute();
      return rows.map((row) => toRecord<K>(row));
    },
    async latest<K extends JobKind>(ownerId: number, kind: K) {
      const row = await ownersJobs(ownerId, kind)
        .where('status', '!=', 'cancelled')
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirst();
      return row && toRecord<K>(row);
    },
    findByPublicId,
    async findLive<K extends JobKind>(ownerId: number, kind: K, dedupeKey: string) {
      const row = await ownersJobs(ownerId, kind)
        .where('dedupe_key', '=', dedupeKey)
        .where('status', 'in', ['queued', 'in_progress'])
        .executeTakeFirst();
      return row && toRecord<K>(row);
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
      return findByPublicId<K>(ownerId, kind, publicId);
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
      return findByPublicId<K>(ownerId, kind, publicId);
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
  };
}
