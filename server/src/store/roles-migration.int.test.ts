import { Migrator, sql } from 'kysely';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { freshDatabase, type TestDatabase } from '../testing/database.js';
import { migrationProvider } from './migrations/index.js';

// Migration 0023 on a studio that already has users (SQLite and PostgreSQL): the first user made
// becomes the admin, the others members; down and up again leaves the schema as it was.

let store: TestDatabase;
beforeEach(async () => {
  store = await freshDatabase();
});
afterEach(() => store.close());

it('makes the first user made the admin and everyone else a member', async () => {
  const migrator = new Migrator({ db: store.db, provider: migrationProvider });
  const down = await migrator.migrateTo('0022-image-list-version');
  expect(down.error).toBeUndefined();
  const now = new Date().toISOString();
  for (const name of ['admin', 'zoe', 'ann'])
    await sql`insert into users (username, password_hash, created_at, updated_at)
      values (${name}, 'h', ${now}, ${now})`.execute(store.db);

  const up = await migrator.migrateToLatest();
  expect(up.error).toBeUndefined();
  const rows = await store.db
    .selectFrom('users')
    .select(['username', 'role', 'disabled_at', 'last_seen_at'])
    .orderBy('id')
    .execute();
  expect(rows).toEqual([
    { username: 'admin', role: 'admin', disabled_at: null, last_seen_at: null },
    { username: 'zoe', role: 'member', disabled_at: null, last_seen_at: null },
    { username: 'ann', role: 'member', disabled_at: null, last_seen_at: null },
  ]);
  expect(await store.db.selectFrom('audit_events').selectAll().execute()).toEqual([]);
});
