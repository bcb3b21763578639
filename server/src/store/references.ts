import type { Db } from './database.js';

/** The content hashes of the users' uploaded references (input_references): one method per query. */
export interface ReferenceRepository {
  /** The owner's first recorded reference file with these bytes; undefined when none is. */
  findByHash(ownerId: number, sha256: string): Promise<string | undefined>;
  /** The owner's reference files whose hash is recorded. */
  hashedNames(ownerId: number): Promise<Set<string>>;
  /** Records a reference file's hash; a file recorded already is left as it is. */
  record(ownerId: number, filename: string, sha256: string, createdAt: string): Promise<void>;
  forget(ownerId: number, filename: string): Promise<void>;
}

export function createReferenceRepository(db: Db): ReferenceRepository {
  return {
    async findByHash(ownerId, sha256) {
      const row = await db
        .selectFrom('input_references')
        .select('filename')
        .where('owner_id', '=', ownerId)
        .where('sha256', '=', sha256)
        // The first recorded: two identical uploads racing agree on the same one.
        .orderBy('seq')
        .limit(1)
        .executeTakeFirst();
      return row?.filename;
    },
    async hashedNames(ownerId) {
      const rows = await db
        .selectFrom('input_references')
        .select('filename')
        .where('owner_id', '=', ownerId)
        .execute();
      return new Set(rows.map((row) => row.filename));
    },
    async record(ownerId, filename, sha256, createdAt) {
      await db
        .insertInto('input_references')
        .values({ owner_id: ownerId, filename, sha256, created_at: createdAt })
        .onConflict((oc) => oc.columns(['owner_id', 'filename']).doNothing())
        .execute();
    },
    async forget(ownerId, filename) {
      await db
        .deleteFrom('input_references')
        .where('owner_id', '=', ownerId)
        .where('filename', '=', filename)
        .execute();
    },
  };
}
