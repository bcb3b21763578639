import fs from 'node:fs';
import path from 'node:path';
import { errorText, TEXTS } from '@tessera/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startTestServer,
  UNLIMITED_PUBLISHING,
  type BrokerKind,
  type TestServer,
} from '../testing/test-server.js';
import { recordHdImage } from '../testing/database.js';
import type { TestClient } from '../testing/test-client.js';
import { subackCodes } from '../testing/mqtt-clients.js';
import { MAX_COMMAND_BYTES } from './service.js';

/**
 * The messaging conformance suite: every command of SPEC §7's table over a real broker, with two
 * users at once. Run against the embedded broker and against Mosquitto.
 */
export function messagingConformance(broker: BrokerKind): void {
  let t: TestServer;
  let alice: TestClient;
  let bob: TestClient;

  beforeAll(async () => {
    // A functional suite: commands go out faster than any person sends them, so no rate limit.
    t = await startTestServer(['alice', 'bob'], broker, {}, UNLIMITED_PUBLISHING);
    [alice, bob] = await Promise.all([t.connect('alice'), t.connect('bob')]);
  }, 60_000);
  afterAll(async () => {
    await t?.stop();
  });

  /** Everything the store and the files hold, to show a refused command changed nothing. */
  async function snapshot(): Promise<string> {
    const [images, tags, links] = await Promise.all([
      t.db.selectFrom('images').selectAll().orderBy('id').execute(),
      t.db.selectFrom('tags').selectAll().orderBy('owner_id').orderBy('id').execute(),
      t.db.selectFrom('image_tags').selectAll().orderBy('image_id').orderBy('tag_id').execute(),
    ]);
    const root = path.join(t.dataDir, 'files');
    const files = fs.existsSync(root)
      ? fs.readdirSync(root, { recursive: true }).map(String).sort()
      : [];
    return JSON.stringify({ images, tags, links, files });
  }

  const ldFile = (user: string, name: string) => path.join(t.dataDir, 'files', user, 'ld', name);
  const ldThumb = (user: string, name: string) =>
    path.join(t.dataDir, 'files', user, 'ld-thumbnails', `${name}.webp`);

  describe(`tags over the ${broker} broker`, () => {
    it('[Q3][T13] list-tag answers an empty first page with the envelope', async () => {
      const reply = await alice.request('list-tag', { page: 1, size: 10 });
      expect(reply.topic).toBe('query/list-tag/user/alice');
      expect(reply.body).toMatchObject({
        user: 'alice',
        success: true,
        page: 1,
        size: 10,
        total: 0,
        tags: [],
      });
      expect(typeof reply.body.transactionid).toBe('string');
    });

    it('[Q4][T5] create-tag keeps the client id and answers it on status-tag', async () => {
      const reply = await alice.request('create-tag', {
        id: 'tag-red',
        name: 'Rojo',
        color: '#ff0000',
      });
      expect(reply.topic).toBe('query/status-tag/user/alice');
      expect(reply.body).toMatchObject({ success: true, id: 'tag-red', user: 'alice' });
      const list = await alice.call('list-tag', { page: 1, size: 10 });
      expect(list.tags).toEqual([{ id: 'tag-red', name: 'Rojo', color: '#ff0000' }]);
    });

    it('[T10] refuses a duplicate name with the spec text, and a taken id', async () => {
      const before = await snapshot();
      expect(
        await alice.call('create-tag', { id: 'tag-red-2', name: 'Rojo', color: '#000000' }),
      ).toMatchObject({
        success: false,
        error: TEXTS.tagDuplicate('Rojo'),
      });
      expect(
        await alice.call('create-tag', { id: 'tag-red', name: 'Otro', color: '#000000' }),
      ).toMatchObject({
        success: false,
        error: "A tag with the id 'tag-red' already exists",
      });
      expect(await snapshot()).toBe(before);
    });

    it('[T9] validates tag names on the server with the contract rule', async () => {
      const before = await snapshot();
      for (const name of ['emoji 🎨', 'a/b', '<script>', '1234567890123456', '']) {
        const reply = await alice.call('create-tag', { id: 'bad', name, color: '#000000' });
        expect(reply.success, name).toBe(false);
      }
      expect(
        (await alice.call('create-tag', { id: 'bad', name: 'emoji 🎨', color: '#000' })).error,
      ).toBe(TEXTS.tagInvalidCharacters);
      expect(await snapshot()).toBe(before);
      // 15 characters, accents and the allowed punctuation pass; a decomposed accent is composed.
      expect(
        await alice.call('create-tag', { id: 'ok15', name: 'Baldosa ñ.,!?-"', color: '#111' }),
      ).toMatchObject({
        success: true,
      });
      expect(
        await alice.call('create-tag', { id: 'nfd', name: 'Cafe\u0301', color: '#222' }),
      ).toMatchObject({
        success: true,
      });
      const names = (
        (await alice.call('list-tag', { page: 1, size: 10 })).tags as { name: string }[]
      ).map((x) => x.name);
      expect(names).toContain('Café');
    });

    it("[T10] update-tag renames, keeps its own name, refuses another tag's name", async () => {
      await alice.call('create-tag', { id: 'tag-blue', name: 'Azul', color: '#0000ff' });
      expect(
        await alice.call('update-tag', { id: 'tag-blue', name: 'Azul', color: '#0000aa' }),
      ).toMatchObject({
        success: true,
      });
      expect(
        await alice.call('update-tag', { id: 'tag-blue', name: 'Rojo', color: '#0000aa' }),
      ).toMatchObject({
        success: false,
        error: TEXTS.tagDuplicate('Rojo'),
      });
      expect(
        await alice.call('update-tag', { id: 'tag-blue', name: 'Azul marino', color: '#000080' }),
      ).toMatchObject({
        success: true,
      });
      expect(
        await alice.call('update-tag', { id: 'nope', name: 'X', color: '#000' }),
      ).toMatchObject({
        success: false,
        error: "Tag 'nope' not found",
      });
      const tags = (await alice.call('list-tag', { page: 1, size: 10 })).tags as {
        id: string;
        name: string;
      }[];
      expect(tags.find((x) => x.id === 'tag-blue')).toEqual({
        id: 'tag-blue',
        name: 'Azul marino',
        color: '#000080',
      });
    });

    it('[T13] pages tags by 10', async () => {
      for (let i = 0; i < 12; i++)
        await bob.call('create-tag', { id: `b${i}`, name: `Bob ${i}`, color: '#123456' });
      const first = await bob.call('list-tag', { page: 1, size: 10 });
      const second = await bob.call('list-tag', { page: 2, size: 10 });
      expect(first).toMatchObject({ total: 12, page: 1, size: 10 });
      expect((first.tags as unknown[]).length).toBe(10);
      expect((second.tags as { id: string }[]).map((x) => x.id)).toEqual(['b10', 'b11']);
    });
  });

  describe(`low-definition images over the ${broker} broker`, () => {
    beforeAll(async () => {
      await t.placeImage('alice', 'ld', 'tile-1.png', {
        cliptextencode_585: 'barro cocido',
        ksampler_cfg: 3.5,
      });
      await t.placeImage('alice', 'ld', 'tile-2.png');
      await t.placeImage('alice', 'ld', 'tile-3.png');
      fs.writeFileSync(ldFile('alice', 'notes.png'), 'not an image');
    });

    it('[Q4] refresh-low-definition indexes files another pipeline placed, with thumbnail and metadata', async () => {
      const reply = await alice.request('refresh-low-definition');
      expect(reply.topic).toBe('query/status-low-definition/user/alice');
      expect(reply.body).toMatchObject({ success: true });
      const list = await alice.call('list-low-definition', {
        page: 1,
        size: 100,
        filters: { tags: [] },
      });
      expect(list).toMatchObject({ success: true, page: 1, size: 100, total: 3 });
      const images = list.images as {
        filename: string;
        thumbnail: string;
        metadata: object;
        tags: string[];
      }[];
      expect(images.map((i) => i.filename).sort()).toEqual([
        'tile-1.png',
        'tile-2.png',
        'tile-3.png',
      ]);
      const first = images.find((i) => i.filename === 'tile-1.png');
      expect(first).toEqual({
        filename: 'tile-1.png',
        thumbnail: '/api/images/ld/thumbnail/tile-1.png',
        metadata: { cliptextencode_585: 'barro cocido', ksampler_cfg: 3.5 },
        tags: [],
      });
      expect(fs.existsSync(ldThumb('alice', 'tile-1.png'))).toBe(true);
      // The file that is no image stays unindexed; refreshing again adds nothing twice.
      await alice.call('refresh-low-definition');
      expect((await alice.call('list-low-definition', { page: 1, size: 100 })).total).toBe(3);
    });

    it('[D12] pages LD images in the requested size', async () => {
      const first = await alice.call('list-low-definition', { page: 1, size: 2 });
      const second = await alice.call('list-low-definition', { page: 2, size: 2 });
      expect((first.images as unknown[]).length).toBe(2);
      expect((second.images as unknown[]).length).toBe(1);
      expect(first.total).toBe(3);
    });

    it("[T8][T4] assign-tag and unassign-tag change the image's tags, and filters keep any of them", async () => {
      await alice.call('create-tag', { id: 'tag-green', name: 'Verde', color: '#00ff00' });
      expect(
        await alice.call('assign-tag', { id: 'tag-red', filename: 'tile-1.png' }),
      ).toMatchObject({ success: true });
      expect(
        await alice.call('assign-tag', { id: 'tag-green', filename: 'tile-2.png' }),
      ).toMatchObject({ success: true });
      // Assigning twice is harmless.
      expect(
        await alice.call('assign-tag', { id: 'tag-green', filename: 'tile-2.png' }),
      ).toMatchObject({ success: true });

      const byRed = await alice.call('list-low-definition', {
        page: 1,
        size: 100,
        filters: { tags: ['tag-red'] },
      });
      expect(
        (byRed.images as { filename: string; tags: string[] }[]).map((i) => [i.filename, i.tags]),
      ).toEqual([['tile-1.png', ['tag-red']]]);
      const byEither = await alice.call('list-low-definition', {
        page: 1,
        size: 100,
        filters: { tags: ['tag-red', 'tag-green'] },
      });
      expect(byEither.total).toBe(2);

      expect(
        await alice.call('unassign-tag', { id: 'tag-red', filename: 'tile-1.png' }),
      ).toMatchObject({ success: true });
      const after = await alice.call('list-low-definition', {
        page: 1,
        size: 100,
        filters: { tags: ['tag-red'] },
      });
      expect(after.total).toBe(0);
    });

    it('[T7] delete-tag unassigns the tag from every image first', async () => {
      await alice.call('create-tag', { id: 'tag-gone', name: 'Efímero', color: '#abcdef' });
      await alice.call('assign-tag', { id: 'tag-gone', filename: 'tile-1.png' });
      await alice.call('assign-tag', { id: 'tag-gone', filename: 'tile-3.png' });
      expect(await alice.call('delete-tag', { id: 'tag-gone' })).toMatchObject({ success: true });
      const list = await alice.call('list-low-definition', { page: 1, size: 100 });
      for (const image of list.images as { tags: string[] }[])
        expect(image.tags).not.toContain('tag-gone');
      const links = await t.db
        .selectFrom('image_tags')
        .selectAll()
        .where('tag_id', '=', 'tag-gone')
        .execute();
      expect(links).toEqual([]);
      expect(await alice.call('delete-tag', { id: 'tag-gone' })).toMatchObject({ success: false });
    });

    it('[Q4] delete-low-definition removes file, thumbnail, links and row together', async () => {
      await alice.call('assign-tag', { id: 'tag-green', filename: 'tile-3.png' });
      const reply = await alice.request('delete-low-definition', { filename: 'tile-3.png' });
      expect(reply.topic).toBe('query/status-low-definition/user/alice');
      expect(reply.body).toMatchObject({ success: true });
      expect(fs.existsSync(ldFile('alice', 'tile-3.png'))).toBe(false);
      expect(fs.existsSync(ldThumb('alice', 'tile-3.png'))).toBe(false);
      const rows = await t.db
        .selectFrom('images')
        .select('id')
        .where('filename', '=', 'tile-3.png')
        .execute();
      expect(rows).toEqual([]);
      expect(await alice.call('delete-low-definition', { filename: 'tile-3.png' })).toMatchObject({
        success: false,
        error: "Image 'tile-3.png' not found",
      });
    });

    it('refresh-low-definition drops rows whose files vanished', async () => {
      await t.placeImage('alice', 'ld', 'fleeting.png');
      await alice.call('refresh-low-definition');
      fs.rmSync(ldFile('alice', 'fleeting.png'));
      await alice.call('refresh-low-definition');
      const list = await alice.call('list-low-definition', { page: 1, size: 100 });
      expect((list.images as { filename: string }[]).map((i) => i.filename)).not.toContain(
        'fleeting.png',
      );
      expect(fs.existsSync(ldThumb('alice', 'fleeting.png'))).toBe(false);
    });
  });

  describe(`high-definition images over the ${broker} broker`, () => {
    it('[Q4] list-high-definition and delete-high-definition', async () => {
      await t.placeImage('bob', 'hd', 'hd-1.png', {
        rescale_factor_cr701: 1.5,
        scale_by_image692: 1.4,
      });
      await recordHdImage(t.db, 'bob', {
        filename: 'hd-1.png',
        width: 96,
        height: 48,
        bytes: 1,
        metadata: { rescale_factor_cr701: 1.5, scale_by_image692: 1.4 },
      });
      const list = await bob.request('list-high-definition', { page: 1, size: 100 });
      expect(list.topic).toBe('query/list-high-definition/user/bob');
      expect(list.body).toMatchObject({
        success: true,
        total: 1,
        images: [
          {
            filename: 'hd-1.png',
            thumbnail: '/api/images/hd/thumbnail/hd-1.png',
            metadata: { rescale_factor_cr701: 1.5, scale_by_image692: 1.4 },
          },
        ],
      });
      const deleted = await bob.request('delete-high-definition', { filename: 'hd-1.png' });
      expect(deleted.topic).toBe('query/status-high-definition/user/bob');
      expect(deleted.body).toMatchObject({ success: true });
      expect(fs.existsSync(path.join(t.dataDir, 'files', 'bob', 'hd', 'hd-1.png'))).toBe(false);
      expect((await bob.call('list-high-definition', { page: 1, size: 100 })).total).toBe(0);
    });
  });

  describe(`isolation over the ${broker} broker`, () => {
    it("[A2] bob sees none of alice's images or tags", async () => {
      const images = await bob.call('list-low-definition', { page: 1, size: 100 });
      expect(images.total).toBe(0);
      const tags = (await bob.call('list-tag', { page: 1, size: 100 })).tags as { id: string }[];
      expect(tags.map((x) => x.id)).not.toContain('tag-red');
    });

    it("[A2] bob cannot change alice's images or tags by payload", async () => {
      const before = await snapshot();
      const attempts: [string, Record<string, unknown>][] = [
        ['delete-low-definition', { filename: 'tile-1.png' }],
        ['assign-tag', { id: 'tag-red', filename: 'tile-1.png' }],
        ['unassign-tag', { id: 'tag-green', filename: 'tile-2.png' }],
        ['update-tag', { id: 'tag-red', name: 'Hacked', color: '#000' }],
        ['delete-tag', { id: 'tag-red' }],
      ];
      for (const [action, fields] of attempts) {
        expect((await bob.call(action as never, fields)).success, action).toBe(false);
      }
      // A payload naming alice on bob's own topic is refused: the topic's user is the identity.
      const spoof = await bob
        .call('delete-tag', { id: 'tag-red' })
        .then(() => bob.request('delete-tag', { id: 'b0', user: 'alice' }));
      expect(spoof.topic).toBe('query/status-tag/user/bob');
      expect(spoof.body).toMatchObject({
        success: false,
        error: errorText('COMMAND_USER_MISMATCH'),
      });
      expect(await snapshot()).toBe(before);
    });

    it("[A2] bob cannot reach alice's data through alice's topics", async () => {
      const before = await snapshot();
      const aliceSaw = alice.received.length;
      // A connection of its own: the embedded broker closes a connection that publishes where it may not.
      const intruder = await t.connect('bob');
      await intruder
        .send('command/delete-tag/user/alice', {
          transactionid: 'x1',
          user: 'alice',
          id: 'tag-red',
        })
        .catch(() => undefined);
      await intruder
        .send('command/delete-low-definition/user/alice', {
          transactionid: 'x2',
          user: 'alice',
          filename: 'tile-1.png',
        })
        .catch(() => undefined);
      // The broker has handled both once it closed the connection or answered a later SUBSCRIBE.
      if (intruder.mqtt.connected)
        await Promise.race([
          new Promise<void>((resolve) => intruder.mqtt.once('close', () => resolve())),
          subackCodes(intruder.mqtt, ['query/list-tag/user/bob']),
        ]);
      // Alice's commands are handled in order: one that reached the service would be first.
      expect(await alice.call('list-tag', { page: 1, size: 10 })).toMatchObject({ success: true });
      expect(await snapshot()).toBe(before);
      expect(alice.received.length).toBe(aliceSaw + 1);
    });

    it('[A2] answers reach only the asking user, with both working at once', async () => {
      const aliceSaw = alice.received.length;
      const replies = await Promise.all([
        ...Array.from({ length: 10 }, () => bob.request('list-tag', { page: 1, size: 10 })),
        ...Array.from({ length: 10 }, () => alice.request('list-tag', { page: 1, size: 10 })),
      ]);
      for (const reply of replies.slice(0, 10)) expect(reply.body.user).toBe('bob');
      for (const reply of replies.slice(10)) expect(reply.body.user).toBe('alice');
      // Sent after bob's answers went out, so answered after any of them that went astray.
      const fence = await alice.call('list-tag', { page: 1, size: 10 });
      expect(fence).toMatchObject({ success: true });
      const newForAlice = alice.received.slice(aliceSaw);
      expect(newForAlice.every((m) => m.topic.endsWith('/user/alice'))).toBe(true);
      expect(newForAlice.length).toBe(10 + 1);
    });
  });

  describe(`bad input over the ${broker} broker`, () => {
    async function refused(action: string, fields: Record<string, unknown>): Promise<string> {
      const reply = await alice.request(action, fields);
      expect(reply.body.success, JSON.stringify(fields)).toBe(false);
      expect(typeof reply.body.error).toBe('string');
      return reply.body.error as string;
    }

    it('answers wrong types, missing fields and huge numbers with a failure and changes nothing', async () => {
      const before = await snapshot();
      expect(await refused('list-low-definition', { page: 'one', size: 100 })).toMatch(/^page: /);
      expect(await refused('list-low-definition', { page: 1 })).toMatch(/^size: /);
      expect(await refused('list-low-definition', { page: 1e12, size: 100 })).toMatch(/^page: /);
      expect(await refused('list-low-definition', { page: 1, size: 1_000_000 })).toMatch(/^size: /);
      expect(await refused('list-low-definition', { page: -1, size: 10 })).toMatch(/^page: /);
      expect(await refused('list-tag', { page: 1.5, size: 10 })).toMatch(/^page: /);
      await refused('list-low-definition', { page: 1, size: 10, filters: { tags: 'tag-red' } });
      await refused('create-tag', { id: 'x', name: 'X' });
      await refused('create-tag', { id: 'x'.repeat(65), name: 'X', color: '#000' });
      await refused('create-tag', { id: 'a b', name: 'X', color: '#000' });
      await refused('create-tag', { id: 'x', name: 'X', color: 'c'.repeat(65) });
      await refused('assign-tag', { id: 'tag-red' });
      expect(await snapshot()).toBe(before);
    });

    it('refuses path tricks in file names', async () => {
      const before = await snapshot();
      for (const filename of [
        '../bob/ld/x.png',
        '/etc/passwd',
        '..',
        '.hidden.png',
        'a\\b.png',
        'a\u0000b.png',
      ]) {
        await refused('delete-low-definition', { filename });
        await refused('assign-tag', { id: 'tag-green', filename });
      }
      expect(await snapshot()).toBe(before);
    });

    it('answers an unknown action with a failure on its query topic', async () => {
      await alice.mqtt.subscribeAsync('query/drop-tables/user/alice');
      const reply = await alice.request('drop-tables', {});
      expect(reply.topic).toBe('query/drop-tables/user/alice');
      expect(reply.body).toMatchObject({ success: false, error: "Unknown action 'drop-tables'" });
    });

    it('logs and drops what it cannot answer, and keeps serving', async () => {
      const before = await snapshot();
      const saw = alice.received.length;
      await alice.send('command/list-tag/user/alice', '{not json');
      await alice.send('command/list-tag/user/alice', '[1,2,3]');
      await alice.send('command/list-tag/user/alice', 'null');
      await alice.send(
        'command/list-tag/user/alice',
        JSON.stringify({ user: 'alice', page: 1, size: 10 }),
      );
      await alice.send('command/list-tag/user/alice', Buffer.from([0xff, 0xfe, 0x00]));
      // Alice's commands are handled in order: this answer comes after any to those above.
      expect(await alice.call('list-tag', { page: 1, size: 10 })).toMatchObject({ success: true });
      expect(alice.received.length).toBe(saw + 1);
      expect(await snapshot()).toBe(before);
    });

    it('[#12] answers an oversized command whose head names its transactionid', async () => {
      const before = await snapshot();
      const huge = JSON.stringify({
        transactionid: 'huge',
        user: 'alice',
        page: 1,
        size: 10,
        pad: 'x'.repeat(MAX_COMMAND_BYTES),
      });
      const answer = alice.answerTo('huge');
      await alice.send('command/list-tag/user/alice', huge);
      expect(await answer).toEqual({
        topic: 'query/list-tag/user/alice',
        body: {
          transactionid: 'huge',
          user: 'alice',
          success: false,
          error: errorText('COMMAND_TOO_LARGE'),
        },
      });
      // Broken JSON is answered too when its head is readable, also after another field.
      const broken = alice.answerTo('broken');
      await alice.send(
        'command/delete-tag/user/alice',
        '{"user":"alice","transactionid":"broken","id":',
      );
      expect((await broken).body).toMatchObject({
        success: false,
        error: errorText('COMMAND_MALFORMED'),
      });
      expect(await snapshot()).toBe(before);
    });

    it('is not fooled by prototype keys or deep nesting', async () => {
      const before = await snapshot();
      const proto = await alice.request('list-tag', {
        page: 1,
        size: 10,
        __proto__: { polluted: true },
      });
      expect(proto.body.success).toBe(true);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      // 100,000 nested arrays: whether the parser gives up or the schema refuses, nothing breaks.
      const depth = 100_000;
      const deep = `{"transactionid":"deep","user":"alice","page":1,"size":10,"filters":{"tags":${'['.repeat(depth)}${']'.repeat(depth)}}}`;
      await alice.send('command/list-low-definition/user/alice', deep);
      // Alice's commands are handled in order: an answer to the deep one comes before this one.
      expect(await alice.call('list-tag', { page: 1, size: 10 })).toMatchObject({ success: true });
      const answer = alice.received.find((m) => m.body.transactionid === 'deep');
      if (answer) expect(answer.body.success).toBe(false);
      expect(await snapshot()).toBe(before);
    });
  });
}
