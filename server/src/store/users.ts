import type { UserRole } from '@tessera/contract';
import type { Db } from './database.js';
import { databaseDialect } from './dialect.js';
import { preparedQuery } from './prepared.js';

export interface UserRecord {
  id: number;
  username: string;
  passwordHash: string;
  createdAt: string;
  role: UserRole;
  /** Set while disabled (issue 29): no sign-in, no broker connection. */
  disabledAt: string | null;
  /** Set once removed with their images kept: the account never signs in again. */
  retiredAt: string | null;
  lastSeenAt: string | null;
}

/** What an account change does to the user; each one that locks them out ends their sessions. */
export type AccountChange =
  { role: UserRole } | { disabledAt: string | null } | { retiredAt: string; passwordHash: string };

/** An account change's outcome: refused when it would leave no enabled administrator. */
export type AccountChangeResult = 'done' | 'unknown' | 'last-admin';

/** The users table: one method per query. */
export interface UserRepository {
  findByUsername(username: string): Promise<UserRecord | undefined>;
  create(username: string, passwordHash: string, role?: UserRole): Promise<UserRecord>;
  /** Also ends the user's sessions and records the change for every server (credential_changes). */
  updatePasswordHash(username: string, passwordHash: string): Promise<boolean>;
  /**
   * Also ends the user's sessions (cascade) and records the change for every server; refused
   * ('last-admin') for the last enabled administrator.
   */
  remove(username: string): Promise<AccountChangeResult>;
  /**
   * Changes the role, the disabled mark or retires the account, unless that leaves no enabled
   * administrator. Disabling and retiring end the sessions and are told to every server.
   */
  change(username: string, change: AccountChange): Promise<AccountChangeResult>;
  /** Notes that the user was seen now, unless already noted less than `minAgeMs` ago. */
  touchLastSeen(userId: number, now: Date, minAgeMs: number): Promise<void>;
  list(): Promise<UserRecord[]>;
  count(): Promise<number>;
}

const COLUMNS = [
  'id',
  'username',
  'password_hash',
  'created_at',
  'role',
  'disabled_at',
  'retired_at',
  'last_seen_at',
] as const;

interface UserRow {
  id: number;
  username: string;
  password_hash: string;
  created_at: string;
  role: string;
  disabled_at: string | null;
  retired_at: string | null;
  last_seen_at: string | null;
}

function toRecord(row: UserRow): UserRecord {
  return {
    id: row.id,
    username: row.username,
    passwordHash: row.password_hash,
    createdAt: row.created_at,
    role: row.role === 'admin' ? 'admin' : 'member',
    disabledAt: row.disabled_at,
    retiredAt: row.retired_at,
    lastSeenAt: row.last_seen_at,
  };
}

const isEnabledAdmin = (row: UserRow) =>
  row.role === 'admin' && row.disabled_at === null && row.retired_at === null;

/** Whether the change takes an enabled administrator away. */
function endsAnAdmin(row: UserRow, change: AccountChange | 'remove'): boolean {
  if (!isEnabledAdmin(row)) return false;
  if (change === 'remove' || 'retiredAt' in change) return true;
  if ('role' in change) return change.role !== 'admin';
  return change.disabledAt !== null;
}

export function createUserRepository(db: Db): UserRepository {
  // Each sign-in and each command's first lookup of its owner (services/owner-cache.ts) read
  // this: built and compiled once.
  const byUsername = preparedQuery(db, 1, (username: string) =>
    db.selectFrom('users').select(COLUMNS).where('username', '=', username),
  );

  /**
   * Runs `apply` on the user in a transaction, unless it would end the last enabled admin. On
   * PostgreSQL the admins' rows are locked first, so two such changes at once cannot both pass.
   */
  async function guarded(
    username: string,
    change: AccountChange | 'remove',
    apply: (tx: Db, user: UserRow, now: string) => Promise<void>,
  ): Promise<AccountChangeResult> {
    return db.transaction().execute(async (tx) => {
      let admins = tx.selectFrom('users').select(COLUMNS).where('role', '=', 'admin');
      if (databaseDialect(db) === 'postgres') admins = admins.forUpdate();
      const lockedAdmins = await admins.execute();
      const user =
        lockedAdmins.find((row) => row.username === username) ??
        (await tx
          .selectFrom('users')
          .select(COLUMNS)
          .where('username', '=', username)
          .executeTakeFirst());
      if (!user) return 'unknown';
      if (endsAnAdmin(user, change) && lockedAdmins.filter(isEnabledAdmin).length <= 1)
        return 'last-admin';
      await apply(tx, user, new Date().toISOString());
      return 'done';
    });
  }

  const endSessions = async (tx: Db, user: UserRow, now: string) => {
    await tx.deleteFrom('sessions').where('user_id', '=', user.id).execute();
    await tx
      .insertInto('credential_changes')
      .values({ username: user.username, changed_at: now })
      .execute();
  };

  return {
    async findByUsername(username) {
      const [row] = await byUsername(username);
      return row && toRecord(row);
    },
    async create(username, passwordHash, role = 'member') {
      const now = new Date().toISOString();
      const row = await db
        .insertInto('users')
        .values({ username, password_hash: passwordHash, created_at: now, updated_at: now, role })
        .returning(COLUMNS)
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
          .where('retired_at', 'is', null)
          .returning('id')
          .executeTakeFirst();
        if (!user) return false;
        await tx.deleteFrom('sessions').where('user_id', '=', user.id).execute();
        await tx.insertInto('credential_changes').values({ username, changed_at: now }).execute();
        return true;
      });
    },
    async remove(username) {
      return guarded(username, 'remove', async (tx, user, now) => {
        await tx.deleteFrom('users').where('id', '=', user.id).execute();
        await tx.insertInto('credential_changes').values({ username, changed_at: now }).execute();
      });
    },
    async change(username, change) {
      return guarded(username, change, async (tx, user, now) => {
        const update = tx.updateTable('users').where('id', '=', user.id);
        if ('role' in change) {
          await update.set({ role: change.role, updated_at: now }).execute();
          return;
        }
        if ('retiredAt' in change) {
          await update
            .set({
              retired_at: change.retiredAt,
              disabled_at: user.disabled_at ?? change.retiredAt,
              password_hash: change.passwordHash,
              updated_at: now,
            })
            .execute();
        } else {
          await update.set({ disabled_at: change.disabledAt, updated_at: now }).execute();
          if (change.disabledAt === null) return;
        }
        await endSessions(tx, user, now);
      });
    },
    async touchLastSeen(userId, now, minAgeMs) {
      await db
        .updateTable('users')
        .set({ last_seen_at: now.toISOString() })
        .where('id', '=', userId)
        .where((eb) =>
          eb.or([
            eb('last_seen_at', 'is', null),
            eb('last_seen_at', '<', new Date(now.getTime() - minAgeMs).toISOString()),
          ]),
        )
        .execute();
    },
    async list() {
      const rows = await db.selectFrom('users').select(COLUMNS).orderBy('username').execute();
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
