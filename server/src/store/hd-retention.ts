import { sql } from 'kysely';
import type { Db } from './database.js';

/** An HD image the retention policy removes (or finishes removing: `pending`). */
export interface RetentionCandidate {
  id: number;
  ownerId: number;
  owner: string;
  filename: string;
  bytes: number;
  createdAt: string;
  /** A removal a crash interrupted: marked, its file perhaps still there. */
  pending: boolean;
  /** The bytes of the material maps and print files made from it, which go with it. */
  derivedBytes: number;
}

/** The files made from an HD image, as their rows name them (areas `maps` and `print`). */
export interface DerivedFiles {
  maps: { filename: string; preview: string }[];
  prints: string[];
}

/** A day's run as recorded in retention_runs. */
export interface RetentionRunRecord {
  day: string;
  startedAt: string;
  finishedAt: string | null;
  removed: number | null;
  bytes: number | null;
}

/** The images and retention_runs queries of the HD retention policy (migration 0024). */
export interface HdRetentionRepository {
  /**
   * The HD images made before `before` (ISO text) that the policy has not removed, and the
   * removals left pending, oldest first.
   */
  candidates(before: string): Promise<RetentionCandidate[]>;
  /**
   * Marks the image's removal pending, as of `removedAt`; false when the row is gone, already
   * done, or no longer older than `before` (ordered again since the plan was read).
   */
  markPending(id: number, before: string, removedAt: string): Promise<boolean>;
  /** The material maps and print files made from the image, still recorded. */
  derivedFiles(imageId: number): Promise<DerivedFiles>;
  /** Ends a pending removal: the rows of what was made from the HD go with its file. */
  markDone(id: number): Promise<void>;
  /**
   * Takes the day's run for `holder`: true for exactly one caller among all processes, unless
   * the run it took was left unfinished since before `staleBefore` (its process died).
   */
  claimDay(day: string, holder: string, startedAt: string, staleBefore: string): Promise<boolean>;
  finishDay(
    day: string,
    holder: string,
    finishedAt: string,
    removed: number,
    bytes: number,
  ): Promise<void>;
  /** The latest days' runs, newest first. */
  recentRuns(limit: number): Promise<RetentionRunRecord[]>;
}

export function createHdRetentionRepository(db: Db): HdRetentionRepository {
  return {
    async candidates(before) {
      const rows = await db
        .selectFrom('images')
        .innerJoin('users', 'users.id', 'images.owner_id')
        .select([
          'images.id',
          'images.owner_id',
          'users.username',
          'images.filename',
          'images.bytes',
          'images.created_at',
          'images.hd_removal',
          (eb) =>
            eb
              .selectFrom('material_maps')
              .select(sql<number | string>`coalesce(sum(material_maps.bytes), 0)`.as('b'))
              .whereRef('material_maps.image_id', '=', 'images.id')
              .as('maps_bytes'),
          (eb) =>
            eb
              .selectFrom('print_files')
              .select(sql<number | string>`coalesce(sum(print_files.bytes), 0)`.as('b'))
              .whereRef('print_files.image_id', '=', 'images.id')
              .as('print_bytes'),
        ])
        .where('images.kind', '=', 'hd')
        .where((eb) =>
          eb.or([
            eb.and([eb('images.hd_removal', 'is', null), eb('images.created_at', '<', before)]),
            eb('images.hd_removal', '=', 'pending'),
          ]),
        )
        .orderBy('images.created_at')
        .orderBy('images.id')
        .execute();
      return rows.map((row) => ({
        id: row.id,
        ownerId: row.owner_id,
        owner: row.username,
        filename: row.filename,
        bytes: Number(row.bytes),
        createdAt: row.created_at,
        pending: row.hd_removal === 'pending',
        derivedBytes: Number(row.maps_bytes ?? 0) + Number(row.print_bytes ?? 0),
      }));
    },
    async markPending(id, before, removedAt) {
      const result = await db
        .updateTable('images')
        .set({
          hd_removal: 'pending',
          hd_removed_at: sql<string>`coalesce(hd_removed_at, ${removedAt})`,
        })
        .where('id', '=', id)
        .where('kind', '=', 'hd')
        .where((eb) =>
          eb.or([
            eb.and([eb('hd_removal', 'is', null), eb('created_at', '<', before)]),
            eb('hd_removal', '=', 'pending'),
          ]),
        )
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async derivedFiles(imageId) {
      const maps = await db
        .selectFrom('material_maps')
        .select(['filename', 'preview_filename'])
        .where('image_id', '=', imageId)
        .orderBy('id')
        .execute();
      const prints = await db
        .selectFrom('print_files')
        .select('filename')
        .where('image_id', '=', imageId)
        .orderBy('id')
        .execute();
      return {
        maps: maps.map((row) => ({ filename: row.filename, preview: row.preview_filename })),
        prints: prints.map((row) => row.filename),
      };
    },
    async markDone(id) {
      await db.transaction().execute(async (tx) => {
        const done = await tx
          .updateTable('images')
          .set({ hd_removal: 'done' })
          .where('id', '=', id)
          .where('hd_removal', '=', 'pending')
          .executeTakeFirst();
        if (Number(done.numUpdatedRows) === 0) return;
        await tx.deleteFrom('material_maps').where('image_id', '=', id).execute();
        await tx.deleteFrom('print_files').where('image_id', '=', id).execute();
      });
    },
    async claimDay(day, holder, startedAt, staleBefore) {
      const inserted = await db
        .insertInto('retention_runs')
        .values({ day, holder, started_at: startedAt })
        .onConflict((oc) => oc.column('day').doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0) return true;
      // A run its process never finished is taken over once it is stale; one row wins the update.
      const taken = await db
        .updateTable('retention_runs')
        .set({ holder, started_at: startedAt })
        .where('day', '=', day)
        .where('finished_at', 'is', null)
        .where('started_at', '<', staleBefore)
        .executeTakeFirst();
      return Number(taken.numUpdatedRows) > 0;
    },
    async finishDay(day, holder, finishedAt, removed, bytes) {
      await db
        .updateTable('retention_runs')
        .set({ finished_at: finishedAt, removed, bytes })
        .where('day', '=', day)
        .where('holder', '=', holder)
        .execute();
    },
    async recentRuns(limit) {
      const rows = await db
        .selectFrom('retention_runs')
        .select(['day', 'started_at', 'finished_at', 'removed', 'bytes'])
        .orderBy('day', 'desc')
        .limit(limit)
        .execute();
      return rows.map((row) => ({
        day: row.day,
        startedAt: row.started_at,
        finishedAt: row.finished_at,
        removed: row.removed === null ? null : Number(row.removed),
        bytes: row.bytes === null ? null : Number(row.bytes),
      }));
    },
  };
}
