import path from 'node:path';
import { Kysely, Migrator, SqliteDialect } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../testing/fixtures.js';
import { openDatabase } from './database.js';
import { SQLite } from './sqlite-driver.js';
import { migrationProvider } from './migrations/index.js';
import type { Database } from './schema.js';
import { createTagRepository } from './tags.js';

// SQLite's own part of the store tier: tags an existing install made before migration 0013.
// The tags' order on any database is in tags.int.test.ts.

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('migration 0013: the order of the tags already there', () => {
  it('keeps tags made in the same millisecond in the order they were made, new ones last', async () => {
    const data = tempDir();
    cleanups.push(data.remove);
    // A database as the last release left it: migrated up to 0012, with tags in it.
    const sqlite = new SQLite(path.join(data.dir, 'tessera.sqlite'));
    const old = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
    const migrated = await new Migrator({ db: old, provider: migrationProvider }).migrateTo(
      '0012-material-maps',
    );
    expect(migrated.error).toBeUndefined();
    const { id: ownerId } = await old
      .insertInto('users')
      .values({ username: 'ann', password_hash: 'x', created_at: '', updated_at: '' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const made = ['tag-c', 'tag-a', 'tag-b'];
    for (const id of made) {
      await old
        .insertInto('tags')
        .values({
          owner_id: ownerId,
          id,
          name: id,
          color: '#000000',
          created_at: '2026-01-01T00:00:00.000Z',
        } as never)
        .execute();
    }
    await old.destroy();

    const db = await openDatabase({ dataDir: data.dir });
    cleanups.push(() => db.destroy());
    const tags = createTagRepository(db);
    await tags.insert(ownerId, { id: 'tag-0', name: 'newest', color: '#ffffff' });
    const { tags: listed } = await tags.page(ownerId, 1, 10);
    expect(listed.map((tag) => tag.id)).toEqual([...made, 'tag-0']);
  });
});
