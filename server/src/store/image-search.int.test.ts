import path from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect, type CompiledQuery } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../testing/fixtures.js';
import { openDatabase } from './database.js';
import { SQLite } from './sqlite-driver.js';
import { createImageRepository, type ImageSearch } from './images.js';
import { migrationProvider } from './migrations/index.js';
import type { Database } from './schema.js';

// SQLite's own part of the store tier: a database migrated from an older release, and SQLite's
// query plans. The repository's behaviour on any database is in images.int.test.ts.

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function sqliteIn(dir: string): BetterSqlite3.Database {
  const sqlite = new SQLite(path.join(dir, 'tessera.sqlite'));
  cleanups.push(() => {
    sqlite.close();
  });
  return sqlite;
}

describe('migration 0009: the search columns of the images already there', () => {
  it('fills prompt, seed and date keys from each row, and nothing is starred', async () => {
    const data = tempDir();
    cleanups.push(data.remove);
    // A database as the last release left it: migrated up to 0008, with images in it.
    const old = new Kysely<Database>({
      dialect: new SqliteDialect({ database: sqliteIn(data.dir) }),
    });
    const migrated = await new Migrator({ db: old, provider: migrationProvider }).migrateTo(
      '0008-credential-changes',
    );
    expect(migrated.error).toBeUndefined();
    const { id: ownerId } = await old
      .insertInto('users')
      .values({ username: 'ann', password_hash: 'x', created_at: '', updated_at: '' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const rows = [
      ['stone.png', { cliptextencode_585: 'Piedra Gris', kseed: 9, created_at: 1_735_732_800 }],
      ['none.png', {}],
      // Broken JSON is no reason for the migration to fail: the row is dated by its addition.
      ['broken.png', '{not json'],
    ] as const;
    // Over 500 rows, so the backfill takes more than one batch.
    const many = Array.from({ length: 600 }, (_, i) => [
      `n-${i}.png`,
      { cliptextencode_585: `Tile ${i}`, seed: i },
    ]);
    await old.transaction().execute(async (trx) => {
      for (const [filename, metadata] of [...rows, ...many]) {
        await trx
          .insertInto('images')
          .values({
            owner_id: ownerId,
            kind: 'ld',
            filename: filename as string,
            source_image_id: null,
            width: 1,
            height: 1,
            bytes: 1,
            metadata: typeof metadata === 'string' ? metadata : JSON.stringify(metadata),
            created_at: '2025-06-01T00:00:00.000Z',
          } as never)
          .execute();
      }
    });
    await old.destroy();

    const db = await openDatabase({ dataDir: data.dir });
    cleanups.push(() => db.destroy());
    const keys = await db
      .selectFrom('images')
      .select(['filename', 'prompt_key', 'seed_key', 'dated_at', 'starred'])
      .orderBy('id')
      .execute();
    expect(keys.slice(0, 3)).toEqual([
      {
        filename: 'stone.png',
        prompt_key: 'piedra gris',
        seed_key: '9',
        dated_at: '2025-01-01T12:00:00.000Z',
        starred: 0,
      },
      {
        filename: 'none.png',
        prompt_key: '',
        seed_key: null,
        dated_at: '2025-06-01T00:00:00.000Z',
        starred: 0,
      },
      {
        filename: 'broken.png',
        prompt_key: '',
        seed_key: null,
        dated_at: '2025-06-01T00:00:00.000Z',
        starred: 0,
      },
    ]);
    expect(keys.at(-1)).toMatchObject({
      filename: 'n-599.png',
      prompt_key: 'tile 599',
      seed_key: '599',
    });
    const found = await createImageRepository(db).page({
      ownerId,
      kind: 'ld',
      page: 1,
      size: 10,
      search: { promptKey: 'piedra', sort: 'newest' },
    });
    expect(found.images.map((i) => i.filename)).toEqual(['stone.png']);
  });
});

describe('the search queries', () => {
  it('read one owner through an index, and never sort in a temporary tree', async () => {
    const data = tempDir();
    cleanups.push(data.remove);
    (await openDatabase({ dataDir: data.dir })).destroy();
    // The repository on a Kysely that notes every query it runs, to ask SQLite for its plans.
    const queries: CompiledQuery[] = [];
    const db = new Kysely<Database>({
      dialect: new SqliteDialect({ database: sqliteIn(data.dir) }),
      log: (event) => {
        if (event.level === 'query') queries.push(event.query);
      },
    });
    cleanups.push(() => db.destroy());
    const sqlite = sqliteIn(data.dir);
    const { id: ownerId } = await db
      .insertInto('users')
      .values({ username: 'ann', password_hash: 'x', created_at: '', updated_at: '' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const repository = createImageRepository(db);
    // Five starred images, so that a second page of two is read by keyset after the first (image-pages.ts).
    for (let i = 0; i < 5; i++) {
      const image = await repository.insert({
        ownerId,
        kind: 'ld',
        filename: `tile_${i}.png`,
        sourceImageId: null,
        width: 1,
        height: 1,
        bytes: 1,
        metadata: { cliptextencode_585: 'stone', seed: 42 },
        createdAt: `2025-01-0${i + 1}T00:00:00.000Z`,
      });
      await repository.setStarred(ownerId, image.id, true);
    }
    const plansOf = (queries: CompiledQuery[]) =>
      queries
        .filter((query) => /^select/i.test(query.sql) && query.sql.includes('"images"'))
        .map((query) =>
          (
            sqlite
              .prepare(`explain query plan ${query.sql}`)
              .all(...(query.parameters as unknown[])) as { detail: string }[]
          ).map((row) => row.detail),
        );
    const expectIndexed = (plans: string[][], search: ImageSearch | undefined) => {
      for (const plan of plans) {
        const onImages = plan.filter((step) => / images\b/.test(step));
        expect(onImages, JSON.stringify({ search, plan })).not.toEqual([]);
        // The listing's indexes, or for a count the unique (owner_id, kind, filename) one, which
        // SQLite may choose as well (it did after migration 0024): either reads one owner's rows.
        for (const step of onImages)
          expect(step, JSON.stringify(search)).toMatch(
            /^SEARCH images USING (COVERING )?INDEX (images_owner_kind_|sqlite_autoindex_images_1 \(owner_id=\? AND kind=\?)/,
          );
        // The rows in the listing's order as the index holds them; only the few tags of each
        // image are put in order (their creation) for its tag list.
        const sorts = plan.filter((step) => /TEMP B-TREE/.test(step));
        expect(sorts, JSON.stringify(search)).toEqual(
          sorts.filter((step) => step.includes('FOR json_group_array(ORDER BY)')),
        );
      }
    };

    const searches: ImageSearch[] = [
      { sort: 'newest' },
      { sort: 'oldest' },
      { sort: 'name' },
      { promptKey: 'stone', sort: 'newest' },
      { seedKey: '42', sort: 'newest' },
      { from: '2025-01-01T00:00:00.000Z', to: '2025-02-01T00:00:00.000Z', sort: 'oldest' },
      { starredOnly: true, sort: 'newest' },
      { promptKey: 'stone', starredOnly: true, sort: 'name' },
    ];
    for (const search of searches) {
      queries.length = 0;
      await repository.page({ ownerId, kind: 'ld', page: 3, size: 100, search });
      const plans = plansOf(queries);
      expect(plans.length, JSON.stringify(search)).toBe(2);
      expectIndexed(plans, search);
    }
    // Page 2 after page 1: one keyset query, no count, through the same indexes.
    for (const search of [undefined, ...searches]) {
      await repository.page({ ownerId, kind: 'ld', page: 1, size: 2, search });
      queries.length = 0;
      await repository.page({ ownerId, kind: 'ld', page: 2, size: 2, search });
      const plans = plansOf(queries);
      expect(plans.length, JSON.stringify(search)).toBe(1);
      expect(queries[0]?.sql, JSON.stringify(search)).not.toMatch(/offset|count\(/i);
      expectIndexed(plans, search);
    }
  });
});
