import type { Db } from './database.js';
import { preparedQuery } from './prepared.js';

export interface UserRecord {
  id: number;
  username: string;
  passwordHash: string;
  createdAt: string;
}

/** The users table: one method per query. */
export interface UserRepository {
  findByUsername(username: string): Promise<UserRecord | undefined>;
  create(username: string, passwordHash: string): Promise<UserRecord>;
  /** Also ends the user's sessions and records the change for every server (credential_changes). */
  updatePasswordHash(username: string, passwordHash: string): Promise<boolean>;
  /** Also ends the user's sessions (cascade) and records the change for every server. */
  remove(username: string): Promise<boolean>;
  list(): Promise<UserRecord[]>;
  count(): Promise<number>;
}

export function createUserRepository(db: Db): UserRepository {
  const columns = ['id', 'username', 'password_hash', 'created_at'] as const;
  const toRecord = (row: {
    id: number;
    username: string;
    password_hash: string;
    created_at: string;
  }) => ({
    id: row.id,
    username: row.username,
    passwordHash: row.password_hash,
    createdAt: row.created_at,
  });
  // Every command looks its user up (services/users.ts, owner): built and compiled once.
  const byUsername = preparedQuery(db, 1, (username: string) =>
    db.selectFrom('users').select(columns).where('username', '=', username),
  );
  return {
    async findByUsername(username) {
      const [row] = await byUsername(username);
      return row && toRecord(row);
    },
    async create(username, passwordHash) {
      const now = new Date().toISOString();
      const row = await db
        .insertInto('users')
        .values({ username, password_hash: passwordHash, created_at: now, updated_at: now })
        .returning(columns)
        .executeTakeFirstOrThrow();
      return toRecord(row);
    },
    async updatePasswordHash(username, passwordHash) {
      return db.transaction().execute(async (tx) => {
        const now = new Date().toISOString();
        const user = await tx
          .updateTable('users')
          .set({ password_hash: passwordHash, updated_at: now })
          .where('username', '=', username)
          .returning('id')
          .executeTakeFirst();
        if (!user) return false;
        await tx.deleteFrom('sessions').where('user_id', '=', user.id).execute();
        await tx.insertInto('credential_changes').values({ username, changed_at: now }).execute();
        return true;
      });
    },
    async remove(username) {
      return db.transaction().execute(async (tx) => {
        const result = await tx
          .deleteFrom('users')
          .where('username', '=', username)
          .executeTakeFirst();
        if (result.numDeletedRows === 0n) return false;
        await tx
          .insertInto('credential_changes')
          .values({ username, changed_at: new Date().toISOString() })
          .execute();
        return true;
      });
    },
    async list() {
      const rows = await db.selectFrom('users').select(columns).orderBy('username').execute();
      return rows.map(toRecord);
    },
    async count() {
      const { n } = await db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      return Number(n);
    },
  };
}
