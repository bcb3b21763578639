import path from 'node:path';
import {
  API_ROUTES,
  errorText,
  MAX_TAGS_PER_USER,
  TAG_NAME_MAX_LENGTH,
  TEXTS,
  type ApiTokenScope,
} from '@tessera/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalFileStore } from '../../files/local-file-store.js';
import { createCommandHandlers } from '../../messaging/handlers/index.js';
import type { Owner } from '../../owner.js';
import { ImageService, thumbnailName } from '../../services/images.js';
import { TagService } from '../../services/tags.js';
import { createImageRepository, type ImageKind } from '../../store/images.js';
import { createTagRepository } from '../../store/tags.js';
import { createTestStore, silentLogger, type TestStore } from '../../testing/fixtures.js';
import { httpTestDependencies } from '../../testing/http-app.js';
import { buildHttpApp } from '../app.js';

// Stars, deletions and tags for scripts (issue 30, part 1), through the whole HTTP app onto the
// messaging service's own handlers and services, on a real SQLite database and file folder:
// what each route changes, and that a missing scope, another user's name or a malformed body
// changes nothing.

let store: TestStore;
let app: FastifyInstance;
let files: LocalFileStore;
let images: ImageService;
let tags: TagService;
const owners: Record<string, Owner> = {};
const tokens: Partial<Record<ApiTokenScope | 'bob', string>> = {};

beforeAll(async () => {
  store = await createTestStore(['alice', 'bob']);
  files = new LocalFileStore(path.join(store.dataDir, 'files'));
  const imageRepo = createImageRepository(store.db);
  images = new ImageService(imageRepo, files, silentLogger);
  tags = new TagService(createTagRepository(store.db), imageRepo);
  app = await buildHttpApp(
    httpTestDependencies(store, { files, scriptChanges: createCommandHandlers({ images, tags }) }),
  );
  for (const username of ['alice', 'bob']) {
    const row = await store.db
      .selectFrom('users')
      .select('id')
      .where('username', '=', username)
      .executeTakeFirstOrThrow();
    owners[username] = { id: row.id, username };
  }
  const token = async (owner: Owner, scopes: ApiTokenScope[]) =>
    (
      await store.apiTokens.create(
        owner,
        { name: scopes.join('+'), scopes, expires_in_days: 30 },
        { name: owner.username },
      )
    ).secret;
  tokens.read = await token(alice(), ['read', 'generate']);
  tokens.manage = await token(alice(), ['manage']);
  // Bob's token may do everything: still never to alice's images or tags.
  tokens.bob = await token(owners.bob as Owner, ['read', 'generate', 'manage']);
});

afterAll(async () => {
  await app.close();
  await store.close();
});

function alice(): Owner {
  return owners.alice as Owner;
}

function post(url: string, payload: unknown, token: ApiTokenScope | 'bob' = 'manage') {
  return app.inject({
    method: 'POST',
    url,
    payload: payload as object,
    headers: { authorization: `Bearer ${tokens[token]}` },
  });
}

/** An image of alice's as the galleries hold it: its file, its thumbnail and its row. */
async function place(kind: ImageKind, filename: string): Promise<void> {
  await files.write('alice', kind, filename, Buffer.from(filename));
  await files.write('alice', `${kind}-thumbnails`, thumbnailName(filename), Buffer.from('t'));
  await createImageRepository(store.db).insert({
    ownerId: alice().id,
    kind,
    filename,
    sourceImageId: null,
    width: 64,
    height: 64,
    bytes: filename.length,
    metadata: {},
    createdAt: new Date().toISOString(),
  });
}

async function aliceImage(kind: ImageKind, filename: string) {
  const page = await images.list(alice(), kind, 1, 500);
  return page.images.find((image) => image.filename === filename);
}

async function aliceTag(id: string) {
  return (await tags.list(alice(), 1, 500)).tags.find((tag) => tag.id === id);
}

const missingScope = { error: errorText('API_TOKEN_SCOPE_MISSING', 'manage') };

describe('stars', () => {
  it('stars and unstars an LD image of the token’s owner, answering the command’s answer', async () => {
    await place('ld', 'star.png');
    const starred = await post(API_ROUTES.starLd, { filename: 'star.png', starred: true });
    expect(starred.statusCode).toBe(200);
    expect(starred.json()).toEqual({ filename: 'star.png', starred: true });
    expect((await aliceImage('ld', 'star.png'))?.starred).toBe(true);
    await post(API_ROUTES.starLd, { filename: 'star.png', starred: false });
    expect((await aliceImage('ld', 'star.png'))?.starred).toBe(false);
  });

  it('refuses a token without manage, another user, and a malformed body: nothing starred', async () => {
    await place('ld', 'kept.png');
    const star = { filename: 'kept.png', starred: true };
    const read = await post(API_ROUTES.starLd, star, 'read');
    expect([read.statusCode, read.json()]).toEqual([403, missingScope]);
    const bob = await post(API_ROUTES.starLd, star, 'bob');
    expect([bob.statusCode, bob.json()]).toEqual([
      404,
      { error: errorText('IMAGE_NOT_FOUND', 'kept.png') },
    ]);
    for (const payload of [{ filename: 'kept.png', starred: 'yes' }, { starred: true }]) {
      const bad = await post(API_ROUTES.starLd, payload);
      expect([bad.statusCode, bad.json()]).toEqual([
        400,
        { error: errorText('STAR_REQUEST_INVALID') },
      ]);
    }
    expect((await aliceImage('ld', 'kept.png'))?.starred).toBe(false);
  });
});

describe('deleting images', () => {
  it('deletes an LD image with its file, thumbnail and tag links, as the app does', async () => {
    await place('ld', 'gone.png');
    await tags.create(alice(), { id: 'on-gone', name: 'Gone', color: '#112233' });
    await tags.assign(alice(), 'on-gone', 'gone.png');
    const res = await post(API_ROUTES.deleteLd, { filename: 'gone.png' });
    expect([res.statusCode, res.json()]).toEqual([200, {}]);
    expect(await aliceImage('ld', 'gone.png')).toBeUndefined();
    expect(await files.stat('alice', 'ld', 'gone.png')).toBeUndefined();
    expect(await files.stat('alice', 'ld-thumbnails', 'gone.png.webp')).toBeUndefined();
    // The tag stays, on no image.
    expect(await aliceTag('on-gone')).toBeDefined();
  });

  it('deletes an HD image by its own route only: the gallery is part of the name', async () => {
    await place('hd', 'big_30x30.png');
    const wrongGallery = await post(API_ROUTES.deleteLd, { filename: 'big_30x30.png' });
    expect(wrongGallery.statusCode).toBe(404);
    expect(await aliceImage('hd', 'big_30x30.png')).toBeDefined();
    const res = await post(API_ROUTES.deleteHd, { filename: 'big_30x30.png' });
    expect(res.statusCode).toBe(200);
    expect(await aliceImage('hd', 'big_30x30.png')).toBeUndefined();
    expect(await files.stat('alice', 'hd', 'big_30x30.png')).toBeUndefined();
  });

  it('refuses a token without manage, another user, and a malformed name: nothing deleted', async () => {
    await place('ld', 'stays.png');
    await place('hd', 'stays_30x30.png');
    for (const [url, filename] of [
      [API_ROUTES.deleteLd, 'stays.png'],
      [API_ROUTES.deleteHd, 'stays_30x30.png'],
    ] as const) {
      const read = await post(url, { filename }, 'read');
      expect([read.statusCode, read.json()]).toEqual([403, missingScope]);
      const bob = await post(url, { filename }, 'bob');
      expect([bob.statusCode, bob.json()]).toEqual([
        404,
        { error: errorText('IMAGE_NOT_FOUND', filename) },
      ]);
      for (const payload of [{ filename: '../stays.png' }, { name: filename }, []]) {
        const bad = await post(url, payload);
        expect([bad.statusCode, bad.json()]).toEqual([
          400,
          { error: errorText('IMAGE_REQUEST_INVALID') },
        ]);
      }
    }
    expect(await aliceImage('ld', 'stays.png')).toBeDefined();
    expect(await aliceImage('hd', 'stays_30x30.png')).toBeDefined();
    expect(await files.stat('alice', 'ld', 'stays.png')).toBeDefined();
  });
});

describe('tags', () => {
  it('makes (201, its id), renames and deletes a tag, which comes off its images', async () => {
    const made = await post(API_ROUTES.createTag, { id: 'wood', name: 'Madera', color: '#a0522d' });
    expect([made.statusCode, made.json()]).toEqual([201, { id: 'wood' }]);
    const renamed = await post(API_ROUTES.updateTag, {
      id: 'wood',
      name: 'Roble',
      color: '#8b4513',
    });
    expect([renamed.statusCode, renamed.json()]).toEqual([200, {}]);
    expect(await aliceTag('wood')).toEqual({ id: 'wood', name: 'Roble', color: '#8b4513' });

    await place('ld', 'oak.png');
    await tags.assign(alice(), 'wood', 'oak.png');
    const deleted = await post(API_ROUTES.deleteTag, { id: 'wood' });
    expect([deleted.statusCode, deleted.json()]).toEqual([200, {}]);
    expect(await aliceTag('wood')).toBeUndefined();
    expect((await aliceImage('ld', 'oak.png'))?.tags).toEqual([]);
  });

  it("answers a name against SPEC §5's rules with the rule's own text, and makes nothing", async () => {
    const cases: [string, string][] = [
      ['   ', TEXTS.tagNameRequired],
      ['x'.repeat(TAG_NAME_MAX_LENGTH + 1), TEXTS.tagNameTooLong(TAG_NAME_MAX_LENGTH)],
      ['Piedra 🪨', TEXTS.tagInvalidCharacters],
    ];
    for (const [name, text] of cases) {
      for (const url of [API_ROUTES.createTag, API_ROUTES.updateTag]) {
        const res = await post(url, { id: 'rule', name, color: '#000000' });
        expect([res.statusCode, res.json()], `${url} ${name}`).toEqual([400, { error: text }]);
      }
    }
    // Any other malformed field: the contract's text of the whole request.
    for (const payload of [
      { id: 'a b', name: 'Piedra', color: '#000000' },
      { id: 'rule', name: 'Piedra', color: 'url(http://x)' },
      { id: 'rule', color: '#000000' },
    ]) {
      const res = await post(API_ROUTES.createTag, payload);
      expect([res.statusCode, res.json()]).toEqual([
        400,
        { error: errorText('TAG_FIELDS_INVALID') },
      ]);
    }
    const noId = await post(API_ROUTES.deleteTag, { id: '' });
    expect([noId.statusCode, noId.json()]).toEqual([400, { error: errorText('TAG_ID_INVALID') }]);
    expect(await aliceTag('rule')).toBeUndefined();
  });

  it('refuses a taken id or name with 409 and the service’s text', async () => {
    await post(API_ROUTES.createTag, { id: 'stone', name: 'Piedra', color: '#777777' });
    await post(API_ROUTES.createTag, { id: 'sand', name: 'Arena', color: '#eecc88' });
    const sameId = await post(API_ROUTES.createTag, { id: 'stone', name: 'Otra', color: '#000' });
    expect([sameId.statusCode, sameId.json()]).toEqual([
      409,
      { error: errorText('TAG_ID_TAKEN', 'stone') },
    ]);
    const sameName = await post(API_ROUTES.updateTag, {
      id: 'sand',
      name: 'Piedra',
      color: '#eecc88',
    });
    expect([sameName.statusCode, sameName.json()]).toEqual([
      409,
      { error: errorText('TAG_NAME_TAKEN', 'Piedra') },
    ]);
    expect(await aliceTag('sand')).toEqual({ id: 'sand', name: 'Arena', color: '#eecc88' });
  });

  it("never reaches another user's tag: bob's token renames and deletes nothing of alice's", async () => {
    await post(API_ROUTES.createTag, { id: 'marble', name: 'Mármol', color: '#ffffff' });
    const marble = { id: 'marble', name: 'Mármol', color: '#ffffff' };
    const rename = await post(API_ROUTES.updateTag, { ...marble, name: 'Mío' }, 'bob');
    expect([rename.statusCode, rename.json()]).toEqual([
      404,
      { error: errorText('TAG_NOT_FOUND', 'marble') },
    ]);
    const remove = await post(API_ROUTES.deleteTag, { id: 'marble' }, 'bob');
    expect(remove.statusCode).toBe(404);
    // Ids are each user's own: bob makes his own 'marble', alice's stays as it was.
    const own = await post(API_ROUTES.createTag, { ...marble, name: 'Otro' }, 'bob');
    expect(own.statusCode).toBe(201);
    expect(await aliceTag('marble')).toEqual(marble);
  });

  it('needs the manage scope to make, rename or delete a tag', async () => {
    const tag = { id: 'slate', name: 'Pizarra', color: '#333333' };
    for (const url of [API_ROUTES.createTag, API_ROUTES.updateTag, API_ROUTES.deleteTag]) {
      const res = await post(url, tag, 'read');
      expect([res.statusCode, res.json()], url).toEqual([403, missingScope]);
    }
    expect(await aliceTag('slate')).toBeUndefined();
  });

  it(`refuses a tag past the ${MAX_TAGS_PER_USER} one user may have`, async () => {
    const bob = owners.bob as Owner;
    const have = (await tags.list(bob, 1, 1)).total;
    const fillers = Array.from({ length: MAX_TAGS_PER_USER - have }, (_, i) => ({
      owner_id: bob.id,
      id: `filler-${i}`,
      name: `Tag ${i}`,
      color: '#000000',
      created_at: new Date().toISOString(),
      seq: have + i + 1,
    }));
    await store.db.insertInto('tags').values(fillers).execute();
    const more = { id: 'one-more', name: 'Más', color: '#000' };
    const res = await post(API_ROUTES.createTag, more, 'bob');
    expect([res.statusCode, res.json()]).toEqual([
      409,
      { error: errorText('TAG_LIMIT_REACHED', MAX_TAGS_PER_USER) },
    ]);
  });
});
