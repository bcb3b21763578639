import type { Db } from './database.js';

export interface CredentialChange {
  seq: number;
  username: string;
  changedAt: Date;
}

/** The credential_changes table (written by store/users.ts): one method per query. */
export interface CredentialChangeRepository {
  /** The sequence number of the newest change, 0 when there is none. */
  latest(): Promise<number>;
  /** The changes after `seq`, oldest first. */
  since(seq: number): Promise<CredentialChange[]>;
  /** Forgets the changes made before `time`; every running server has long seen them. */
  removeBefore(time: Date): Promise<void>;
}

export function createCredentialChangeRepository(db: Db): CredentialChangeRepository {
  return {
    async latest() {
      const { seq } = await db
        .selectFrom('credential_changes')
        .select((eb) => eb.fn.max<number | null>('seq').as('seq'))
        .executeTakeFirstOrThrow();
      return seq ?? 0;
    },
    async since(seq) {
      const rows = await db
        .selectFrom('credential_changes')
        .select(['seq', 'username', 'changed_at'])
        .where('seq', '>', seq)
        .orderBy('seq')
        .execute();
      return rows.map((row) => ({
        seq: row.seq,
        username: row.username,
        changedAt: new Date(row.changed_at),
      }));
    },
    async removeBefore(time) {
      await db
        .deleteFrom('credential_changes')
        .where('changed_at', '<', time.toISOString())
        .execute();
    },
  };
}
