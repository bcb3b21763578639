import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createImageRepository } from '../store/images.js';
import { createUserRepository } from '../store/users.js';
import type { TestClient } from '../testing/test-client.js';
import {
  startTestServer,
  UNLIMITED_PUBLISHING,
  type BrokerKind,
  type TestServer,
} from '../testing/test-server.js';

interface Listed {
  filename: string;
  thumbnail: string;
  metadata: Record<string, unknown>;
  tags: string[];
  starred?: boolean;
}

/**
 * Alice's images. The order they were added (the spec's list: newest added first) differs from
 * the order of their dates (what the Date column shows, and what a search sorts by), and one
 * name starts upper-case, so each order shows which rule made it.
 */
const ALICE = [
  {
    filename: 'B-stone.png',
    metadata: {
      cliptextencode_585: 'Seamless Stone wall',
      kseed: '0042',
      created_at: '2025-01-10T10:00:00Z',
    },
    addedAt: '2025-03-01T00:00:00.000Z',
  },
  {
    filename: 'a-marble.png',
    metadata: {
      cliptextencode_585: 'Mármol blanco, polished',
      seed: 7,
      created_at: '2025-01-20T10:00:00Z',
    },
    addedAt: '2025-02-01T00:00:00.000Z',
  },
  {
    filename: 'c-wood.png',
    metadata: { cliptextencode_585: '100% oak_wood planks', seed: 42, created_at: 1_738_366_200 },
    addedAt: '2025-01-05T00:00:00.000Z',
  },
  // No metadata: dated by when it was added.
  { filename: 'd-none.png', metadata: {}, addedAt: '2025-01-15T00:00:00.000Z' },
  {
    filename: 'e-stone.png',
    metadata: {
      cliptextencode_585: 'STONE floor',
      kseed: 1234,
      creation_date: '2025-02-05T08:00:00+01:00',
    },
    addedAt: '2025-02-10T00:00:00.000Z',
  },
];
/** Bob has a stone too, and a file of the very name of one of Alice's. */
const BOB = [
  {
    filename: 'B-stone.png',
    metadata: { cliptextencode_585: 'stone of bob', seed: 42 },
    addedAt: '2025-01-01T00:00:00.000Z',
  },
  {
    filename: 'bob-stone.png',
    metadata: { cliptextencode_585: 'stone', seed: 7 },
    addedAt: '2025-01-02T00:00:00.000Z',
  },
];

/** In the order the spec's list gives: newest added first. */
const ADDED_ORDER = ['B-stone.png', 'e-stone.png', 'a-marble.png', 'd-none.png', 'c-wood.png'];
/** By the date the gallery shows. */
const NEWEST = ['e-stone.png', 'c-wood.png', 'a-marble.png', 'd-none.png', 'B-stone.png'];

/**
 * Finding and starring LD images over a real broker (issue 13, features 8 and 9): the search
 * fields of list-low-definition and the star-low-definition command, for two users at once.
 */
export function findAndStarSuite(broker: BrokerKind): void {
  let t: TestServer;
  let alice: TestClient;
  let bob: TestClient;

  beforeAll(async () => {
    t = await startTestServer(['alice', 'bob'], broker, {}, UNLIMITED_PUBLISHING);
    [alice, bob] = await Promise.all([t.connect('alice'), t.connect('bob')]);
    const users = createUserRepository(t.db);
    const images = createImageRepository(t.db);
    for (const [name, list] of [
      ['alice', ALICE],
      ['bob', BOB],
    ] as const) {
      const owner = await users.findByUsername(name);
      if (!owner) throw new Error(`no user ${name}`);
      for (const image of list) {
        await images.insert({
          ownerId: owner.id,
          kind: 'ld',
          filename: image.filename,
          sourceImageId: null,
          width: 64,
          height: 64,
          bytes: 1,
          metadata: image.metadata,
          createdAt: image.addedAt,
        });
      }
    }
    await alice.call('create-tag', { id: 'tag-keep', name: 'Keep', color: '#123456' });
    await alice.call('assign-tag', { id: 'tag-keep', filename: 'B-stone.png' });
    await alice.call('assign-tag', { id: 'tag-keep', filename: 'a-marble.png' });
  }, 60_000);
  afterAll(async () => {
    await t?.stop();
  });

  /** Everything the store and the files hold, to show a refused command changed nothing. */
  async function snapshot(): Promise<string> {
    const [images, links] = await Promise.all([
      t.db.selectFrom('images').selectAll().orderBy('id').execute(),
      t.db.selectFrom('image_tags').selectAll().orderBy('image_id').orderBy('tag_id').execute(),
    ]);
    const root = path.join(t.dataDir, 'files');
    const files = fs.existsSync(root)
      ? fs.readdirSync(root, { recursive: true }).map(String).sort()
      : [];
    return JSON.stringify({ images, links, files });
  }

  async function find(
    client: TestClient,
    search: Record<string, unknown>,
    page = { page: 1, size: 100 },
    filters: Record<string, unknown> = { tags: [] },
  ): Promise<{ total: number; images: Listed[]; names: string[] }> {
    const answer = await client.call('list-low-definition', { ...page, filters, search });
    expect(answer.success, JSON.stringify(answer)).toBe(true);
    const images = answer.images as Listed[];
    return { total: answer.total as number, images, names: images.map((i) => i.filename) };
  }
  const names = async (search: Record<string, unknown>) => (await find(alice, search)).names;

  describe(`finding images over the ${broker} broker`, () => {
    it("answers the spec's plain payload exactly as before: added order, no stars", async () => {
      expect(
        await alice.call('star-low-definition', { filename: 'a-marble.png', starred: true }),
      ).toMatchObject({ success: true });
      for (const fields of [
        { page: 1, size: 100, filters: { tags: [] } },
        { page: 1, size: 100 },
      ]) {
        const reply = await alice.request('list-low-definition', fields);
        expect(reply.topic).toBe('query/list-low-definition/user/alice');
        expect(reply.body).toStrictEqual({
          transactionid: reply.body.transactionid,
          user: 'alice',
          success: true,
          page: 1,
          size: 100,
          total: 5,
          images: ADDED_ORDER.map((filename) => ({
            filename,
            thumbnail: `/api/images/ld/thumbnail/${filename}`,
            metadata: ALICE.find((i) => i.filename === filename)?.metadata,
            tags: ['B-stone.png', 'a-marble.png'].includes(filename) ? ['tag-keep'] : [],
          })),
        });
      }
      await alice.call('star-low-definition', { filename: 'a-marble.png', starred: false });
    });

    it('with a search, sorts by the shown date, newest or oldest first, or by name', async () => {
      const all = await find(alice, {});
      expect(all.names).toEqual(NEWEST);
      expect(all.total).toBe(5);
      // Every image says whether it is starred.
      expect(all.images.every((image) => image.starred === false)).toBe(true);
      expect(await names({ sort: 'newest' })).toEqual(NEWEST);
      expect(await names({ sort: 'oldest' })).toEqual([...NEWEST].reverse());
      // Upper and lower case together, as a person reads names.
      expect(await names({ sort: 'name' })).toEqual([
        'a-marble.png',
        'B-stone.png',
        'c-wood.png',
        'd-none.png',
        'e-stone.png',
      ]);
    });

    it('finds part of the positive prompt, ignoring case, accents and blanks around it', async () => {
      expect(await names({ text: 'stone' })).toEqual(['e-stone.png', 'B-stone.png']);
      expect(await names({ text: '  STONE WALL ' })).toEqual(['B-stone.png']);
      expect(await names({ text: 'marmol' })).toEqual(['a-marble.png']);
      expect(await names({ text: 'mármol' })).toEqual(['a-marble.png']);
      // The text is matched as written: % and _ are no wildcards.
      expect(await names({ text: '%' })).toEqual(['c-wood.png']);
      expect(await names({ text: 'k_w' })).toEqual(['c-wood.png']);
      expect(await names({ text: 'granite' })).toEqual([]);
      // Blank matches everything; SQL in the text is only text.
      expect(await names({ text: '   ' })).toEqual(NEWEST);
      expect(await find(alice, { text: "'; DROP TABLE images; --" })).toMatchObject({ total: 0 });
      expect(await names({})).toEqual(NEWEST);
    });

    it('finds a seed exactly, whether written with leading zeros or kept as kseed', async () => {
      expect(await names({ seed: '42' })).toEqual(['c-wood.png', 'B-stone.png']);
      expect(await names({ seed: '0042' })).toEqual(['c-wood.png', 'B-stone.png']);
      expect(await names({ seed: '7' })).toEqual(['a-marble.png']);
      expect(await names({ seed: '4' })).toEqual([]);
      expect(await names({ seed: '1234', text: 'stone' })).toEqual(['e-stone.png']);
    });

    it('keeps the images dated from `from` (included) to `to` (excluded)', async () => {
      const range = (from?: string, to?: string) =>
        names({ ...(from && { from }), ...(to && { to }), sort: 'oldest' });
      expect(await range('2025-01-20T00:00:00Z', '2025-02-01T00:00:00Z')).toEqual([
        'a-marble.png',
        'c-wood.png',
      ]);
      // c-wood is dated 2025-01-31T23:30:00Z (epoch seconds in its metadata).
      expect(await range('2025-01-20T10:00:00Z', '2025-01-31T23:30:00Z')).toEqual(['a-marble.png']);
      expect(await range('2025-02-01T00:30:00+01:00')).toEqual(['c-wood.png', 'e-stone.png']);
      expect(await range(undefined, '2025-01-16T00:00:00Z')).toEqual(['B-stone.png', 'd-none.png']);
      // A range that ends before it starts holds nothing.
      expect(await range('2025-02-01T00:00:00Z', '2025-01-01T00:00:00Z')).toEqual([]);
    });

    it('combines search, the tag filter and paging', async () => {
      const page2 = await find(alice, { sort: 'name' }, { page: 2, size: 2 });
      expect(page2).toMatchObject({ total: 5, names: ['c-wood.png', 'd-none.png'] });
      const tagged = await find(
        alice,
        { sort: 'name' },
        { page: 1, size: 100 },
        { tags: ['tag-keep'] },
      );
      expect(tagged.names).toEqual(['a-marble.png', 'B-stone.png']);
      const both = await find(
        alice,
        { text: 'stone' },
        { page: 1, size: 100 },
        { tags: ['tag-keep'] },
      );
      expect(both).toMatchObject({ total: 1, names: ['B-stone.png'] });
    });
  });

  describe(`starring images over the ${broker} broker`, () => {
    it('stars and unstars, answers on status-low-definition, and filters to the starred', async () => {
      const reply = await alice.request('star-low-definition', {
        filename: 'e-stone.png',
        starred: true,
      });
      expect(reply.topic).toBe('query/status-low-definition/user/alice');
      expect(reply.body).toStrictEqual({
        transactionid: reply.body.transactionid,
        user: 'alice',
        success: true,
        filename: 'e-stone.png',
        starred: true,
      });
      expect(
        await alice.call('star-low-definition', { filename: 'a-marble.png', starred: true }),
      ).toMatchObject({ success: true });
      // Starring twice is harmless.
      expect(
        await alice.call('star-low-definition', { filename: 'a-marble.png', starred: true }),
      ).toMatchObject({ success: true });

      const starred = await find(alice, { starred: true });
      expect(starred).toMatchObject({ total: 2, names: ['e-stone.png', 'a-marble.png'] });
      expect(starred.images.every((image) => image.starred)).toBe(true);
      const all = await find(alice, {});
      expect(all.images.map((i) => [i.filename, i.starred])).toEqual([
        ['e-stone.png', true],
        ['c-wood.png', false],
        ['a-marble.png', true],
        ['d-none.png', false],
        ['B-stone.png', false],
      ]);
      // `starred: false` is no filter: it keeps everything.
      expect(await names({ starred: false })).toEqual(NEWEST);
      expect(await names({ starred: true, text: 'stone' })).toEqual(['e-stone.png']);
      expect(await names({ starred: true, sort: 'name' })).toEqual(['a-marble.png', 'e-stone.png']);

      expect(
        await alice.call('star-low-definition', { filename: 'e-stone.png', starred: false }),
      ).toMatchObject({ success: true, starred: false });
      expect(await names({ starred: true })).toEqual(['a-marble.png']);
      // Kept in the store.
      const rows = await t.db
        .selectFrom('images')
        .select(['filename', 'starred'])
        .where('starred', '=', 1)
        .execute();
      expect(rows).toEqual([{ filename: 'a-marble.png', starred: 1 }]);
    });

    it("bob stars only his own image of the same name, and never sees alice's", async () => {
      expect(
        await bob.call('star-low-definition', { filename: 'B-stone.png', starred: true }),
      ).toMatchObject({ success: true });
      const mine = await find(bob, { starred: true });
      expect(mine.images).toStrictEqual([
        {
          filename: 'B-stone.png',
          thumbnail: '/api/images/ld/thumbnail/B-stone.png',
          metadata: BOB[0]?.metadata,
          tags: [],
          starred: true,
        },
      ]);
      expect(await find(alice, { text: 'stone', starred: true })).toMatchObject({ total: 0 });
      // Bob's searches reach only his images, whatever they look for.
      expect((await find(bob, { text: 'stone' })).names).toEqual(['bob-stone.png', 'B-stone.png']);
      expect((await find(bob, { seed: '7' })).names).toEqual(['bob-stone.png']);
      expect((await find(bob, { text: 'marmol' })).total).toBe(0);
      await bob.call('star-low-definition', { filename: 'B-stone.png', starred: false });
    });

    it("bob cannot star or unstar alice's images, by payload or by her topics", async () => {
      const before = await snapshot();
      for (const [filename, starred] of [
        ['a-marble.png', false],
        ['e-stone.png', true],
        ['../alice/ld/a-marble.png', false],
      ] as const) {
        const answer = await bob.call('star-low-definition', { filename, starred });
        expect(answer.success, filename).toBe(false);
      }
      expect(
        await bob.call('star-low-definition', { filename: 'a-marble.png', starred: false }),
      ).toMatchObject({ error: "Image 'a-marble.png' not found" });
      // A payload naming alice on bob's topic is refused: the topic's user is the identity.
      expect(
        (
          await bob.request('star-low-definition', {
            filename: 'a-marble.png',
            starred: false,
            user: 'alice',
          })
        ).body,
      ).toMatchObject({ success: false, error: "The payload's user does not match the topic" });
      // Alice's command topic is not bob's to publish on (the embedded broker closes him).
      const intruder = await t.connect('bob');
      await intruder
        .send('command/star-low-definition/user/alice', {
          transactionid: 'x1',
          user: 'alice',
          filename: 'a-marble.png',
          starred: false,
        })
        .catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(await snapshot()).toBe(before);
      expect(await names({ starred: true })).toEqual(['a-marble.png']);
    });
  });

  describe(`bad searches and stars over the ${broker} broker`, () => {
    async function refused(action: string, fields: Record<string, unknown>): Promise<string> {
      const reply = await alice.request(action, fields);
      expect(reply.body.success, JSON.stringify(fields)).toBe(false);
      expect(typeof reply.body.error).toBe('string');
      return reply.body.error as string;
    }
    const list = (search: unknown) =>
      refused('list-low-definition', { page: 1, size: 100, search });
    const star = (fields: Record<string, unknown>) => refused('star-low-definition', fields);

    it('answers each with a clear error and changes nothing', async () => {
      const before = await snapshot();
      expect(await list({ seed: 'abc' })).toBe('search.seed: The seed must be a whole number');
      expect(await list({ seed: 42 })).toMatch(/^search\.seed: /);
      expect(await list({ sort: 'random' })).toMatch(/^search\.sort: /);
      expect(await list({ from: 'last week' })).toMatch(/^search\.from: Must be an ISO date/);
      expect(await list({ to: 1_738_366_200 })).toMatch(/^search\.to: /);
      expect(await list({ starred: 'yes' })).toMatch(/^search\.starred: /);
      expect(await list({ text: 'x'.repeat(2001) })).toMatch(/^search\.text: /);
      expect(await list({ text: { $ne: null } })).toMatch(/^search\.text: /);
      expect(await list({ sortBy: 'name' })).toMatch(/^search: .*sortBy/);
      expect(await list('stone')).toMatch(/^search: /);
      expect(await list(null)).toMatch(/^search: /);

      expect(await star({ filename: 'a-marble.png' })).toMatch(/^starred: /);
      expect(await star({ filename: 'a-marble.png', starred: 'true' })).toMatch(/^starred: /);
      expect(await star({ filename: 'a-marble.png', starred: 1 })).toMatch(/^starred: /);
      expect(await star({ starred: true })).toMatch(/^filename: /);
      expect(await star({ filename: 'ghost.png', starred: true })).toBe(
        "Image 'ghost.png' not found",
      );
      for (const filename of ['../bob/ld/B-stone.png', '/etc/passwd', '..', 'a\u0000b.png', ''])
        await star({ filename, starred: true });
      expect(await snapshot()).toBe(before);
    });
  });
}
