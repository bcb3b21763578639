import fsp from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { API_ROUTES, errorText } from '@tessera/contract';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalFileStore } from '../../files/local-file-store.js';
import { createTestStore, passwordOf, type TestStore } from '../../testing/fixtures.js';
import { httpTestDependencies } from '../../testing/http-app.js';
import { buildHttpApp } from '../app.js';
import { SESSION_COOKIE } from '../session.js';
import { IMAGE_CACHE_CONTROL, matchesEntityTag, parseRange } from './images.js';

let store: TestStore;
let files: LocalFileStore;
let filesRoot: string;
let app: FastifyInstance;
const sessions: Record<string, string> = {};

const noise = (width: number, height: number) => {
  const data = Buffer.alloc(width * height * 3);
  for (let i = 0; i < data.length; i++) data[i] = (i * 7919) % 251;
  return sharp(data, { raw: { width, height, channels: 3 } });
};

let tile: Buffer;
let tileThumb: Buffer;
let big: Buffer;
let reference: Buffer;

beforeAll(async () => {
  store = await createTestStore(['alice', 'bob']);
  filesRoot = path.join(store.dataDir, 'files');
  files = new LocalFileStore(filesRoot);
  // Not these routes' business: every service is a strict fake, any call fails the test.
  app = await buildHttpApp(httpTestDependencies(store, { files }));
  for (const user of ['alice', 'bob']) {
    const res = await app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { username: user, password: passwordOf(user) },
    });
    sessions[user] = res.cookies.find((c) => c.name === SESSION_COOKIE)?.value ?? '';
  }

  tile = await noise(64, 64).png().toBuffer();
  tileThumb = await noise(32, 32).webp().toBuffer();
  big = await noise(300, 200).png().toBuffer();
  reference = await noise(40, 30).jpeg().toBuffer();
  await files.write('alice', 'ld', 'tile.png', tile);
  await files.write('alice', 'ld-thumbnails', 'tile.png.webp', tileThumb);
  await files.write('alice', 'hd', 'big.png', big);
  await files.write('alice', 'hd-thumbnails', 'big.png.webp', tileThumb);
  await files.write('alice', 'input', 'ref-1a2b.jpg', reference);
  await files.write('alice', 'input', 'mislabelled.png', reference);
  await files.write('alice', 'input', 'notes.txt', Buffer.from('<script>alert(1)</script>'));
  await files.write('bob', 'ld', 'bobs.png', tile);
  // Files no request may reach: hidden and temporary names the store itself uses.
  await fsp.writeFile(path.join(filesRoot, 'alice', 'ld', '.hidden'), tile);
  await fsp.writeFile(path.join(filesRoot, 'alice', 'ld', '.tmp-0123-tile.png'), tile);
});

afterAll(async () => {
  await app.close();
  await store.close();
});

function get(url: string, user?: string, headers: Record<string, string> = {}) {
  return app.inject({
    method: 'GET',
    url,
    headers,
    cookies: user ? { [SESSION_COOKIE]: sessions[user] ?? '' } : {},
  });
}

describe('image files (SPEC §7)', () => {
  it('serves the owner the bytes, with content type, strong ETag, nosniff and private caching', async () => {
    const res = await get('/api/images/ld/tile.png', 'alice');
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(tile)).toBe(true);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['content-length']).toBe(String(tile.length));
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cache-control']).toBe(IMAGE_CACHE_CONTROL);
    expect(res.headers['cache-control']).toMatch(/^private, max-age=\d+/);
    expect(res.headers.vary).toMatch(/cookie/i);
    expect(res.headers.etag).toMatch(/^"[\w-]{27}"$/);
    // The same file answers the same tag.
    expect((await get('/api/images/ld/tile.png', 'alice')).headers.etag).toBe(res.headers.etag);
  });

  it('serves every area: LD and HD images and thumbnails, and the uploaded references', async () => {
    const cases = [
      ['/api/images/ld/thumbnail/tile.png', tileThumb, 'image/webp'],
      ['/api/images/hd/big.png', big, 'image/png'],
      ['/api/images/hd/thumbnail/big.png', tileThumb, 'image/webp'],
      ['/api/images/input/ref-1a2b.jpg', reference, 'image/jpeg'],
    ] as const;
    for (const [url, bytes, type] of cases) {
      const res = await get(url, 'alice');
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toBe(type);
      expect(res.rawPayload.equals(bytes), url).toBe(true);
    }
  });

  it('types a file by its content, and never as something a browser would run', async () => {
    const jpeg = await get('/api/images/input/mislabelled.png', 'alice');
    expect(jpeg.headers['content-type']).toBe('image/jpeg');
    const text = await get('/api/images/input/notes.txt', 'alice');
    expect(text.statusCode).toBe(200);
    expect(text.headers['content-type']).toBe('application/octet-stream');
  });

  it('answers 304 to a matching If-None-Match, and the file to a stale one', async () => {
    const { etag = '' } = (await get('/api/images/ld/tile.png', 'alice')).headers;
    for (const header of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const res = await get('/api/images/ld/tile.png', 'alice', { 'if-none-match': header });
      expect(res.statusCode, header).toBe(304);
      expect(res.rawPayload.length).toBe(0);
      expect(res.headers.etag).toBe(etag);
      expect(res.headers['cache-control']).toBe(IMAGE_CACHE_CONTROL);
    }
    const stale = await get('/api/images/ld/tile.png', 'alice', { 'if-none-match': '"stale"' });
    expect(stale.statusCode).toBe(200);
    expect(stale.rawPayload.equals(tile)).toBe(true);
  });

  it('gives a file written again a new ETag', async () => {
    await files.write('alice', 'ld', 'again.png', tile);
    const before = (await get('/api/images/ld/again.png', 'alice')).headers.etag;
    await files.write('alice', 'ld', 'again.png', big);
    const after = await get('/api/images/ld/again.png', 'alice', {
      'if-none-match': String(before),
    });
    expect(after.statusCode).toBe(200);
    expect(after.headers.etag).not.toBe(before);
    expect(after.rawPayload.equals(big)).toBe(true);
  });

  it("answers another user's file with 404, exactly as a missing one, never 403", async () => {
    const foreign = await get('/api/images/ld/bobs.png', 'alice');
    const missing = await get('/api/images/ld/no-such.png', 'alice');
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual(missing.json());
    expect((await get('/api/images/ld/tile.png', 'bob')).statusCode).toBe(404);
    expect((await get('/api/images/ld/thumbnail/tile.png', 'bob')).statusCode).toBe(404);
    expect((await get('/api/images/hd/big.png', 'bob')).statusCode).toBe(404);
    expect((await get('/api/images/input/ref-1a2b.jpg', 'bob')).statusCode).toBe(404);
    // A file of one area is not found in another.
    expect((await get('/api/images/hd/tile.png', 'alice')).statusCode).toBe(404);
    expect((await get('/api/images/ld/thumbnail/tile.png.webp', 'alice')).statusCode).toBe(404);
    // And bob has his own.
    expect((await get('/api/images/ld/bobs.png', 'bob')).statusCode).toBe(200);
  });

  it('answers 401 without a valid session', async () => {
    for (const url of [
      '/api/images/ld/tile.png',
      '/api/images/ld/thumbnail/tile.png',
      '/api/images/hd/big.png',
      '/api/images/hd/thumbnail/big.png',
      '/api/images/input/ref-1a2b.jpg',
    ]) {
      expect((await get(url)).statusCode, url).toBe(401);
      const forged = await app.inject({ url, cookies: { [SESSION_COOKIE]: 'forged' } });
      expect(forged.statusCode, url).toBe(401);
    }
  });

  it('treats a file name as a name, never a path: tricks get 404', async () => {
    for (const url of [
      '/api/images/ld/..%2fbob%2fld%2fbobs.png',
      '/api/images/ld/..%2F..%2Fbob%2Fld%2Fbobs.png',
      '/api/images/ld/..%2f..%2f..%2f..%2fpackage.json',
      '/api/images/ld/%2e%2e%2fhd%2fbig.png',
      '/api/images/ld/..%5c..%5cbob%5cld%5cbobs.png',
      '/api/images/ld/%2e%2e',
      '/api/images/ld/..',
      '/api/images/ld/.',
      '/api/images/ld/.hidden',
      '/api/images/ld/%2ehidden',
      '/api/images/ld/.tmp-0123-tile.png',
      '/api/images/ld/tile.png%00',
      '/api/images/ld/tile.png%00.jpg',
      '/api/images/ld/thumbnail/..%2fld%2ftile.png',
      '/api/images/input/%2fetc%2fpasswd',
      '/api/images/ld/../../../etc/passwd',
      '/api/images/ld/sub/tile.png',
      '/api/images/ld/',
    ]) {
      const res = await get(url, 'alice');
      expect(res.statusCode, url).toBe(404);
      expect(res.rawPayload.equals(tile), url).toBe(false);
    }
  });

  it('answers a name of at most 255 characters but more than 255 bytes as not found on every image route (issue 22, part 5)', async () => {
    // 200 × 'é' is 200 characters and 400 bytes of UTF-8: no file system holds such a name.
    const name = encodeURIComponent(`${'é'.repeat(200)}.png`);
    for (const route of [
      API_ROUTES.ldImage,
      API_ROUTES.ldThumbnail,
      API_ROUTES.hdImage,
      API_ROUTES.hdThumbnail,
      API_ROUTES.inputImage,
      API_ROUTES.mapImage,
    ]) {
      const url = route.replace(':filename', name);
      const res = await get(url, 'alice');
      expect(res.statusCode, route).toBe(404);
      expect(res.json(), route).toEqual({ error: errorText('NOT_FOUND') });
    }
  });

  it('answers a HEAD with the headers and no body', async () => {
    const res = await app.inject({
      method: 'HEAD',
      url: '/api/images/hd/big.png',
      cookies: { [SESSION_COOKIE]: sessions.alice ?? '' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-length']).toBe(String(big.length));
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.rawPayload.length).toBe(0);
  });
});

describe('byte ranges', () => {
  const url = '/api/images/hd/big.png';

  it('answers a range with 206, its content-range and exactly those bytes', async () => {
    const size = big.length;
    const cases = [
      ['bytes=0-99', 0, 99],
      ['bytes=100-', 100, size - 1],
      ['bytes=-50', size - 50, size - 1],
      [`bytes=10-${size + 1000}`, 10, size - 1],
      [`bytes=${size - 1}-${size - 1}`, size - 1, size - 1],
    ] as const;
    for (const [range, start, end] of cases) {
      const res = await get(url, 'alice', { range });
      expect(res.statusCode, range).toBe(206);
      expect(res.headers['content-range'], range).toBe(`bytes ${start}-${end}/${size}`);
      expect(res.headers['content-length'], range).toBe(String(end - start + 1));
      expect(res.headers['content-type']).toBe('image/png');
      expect(res.rawPayload.equals(big.subarray(start, end + 1)), range).toBe(true);
    }
    expect((await get(url, 'alice')).headers['accept-ranges']).toBe('bytes');
  });

  it('answers 416 to a range past the end', async () => {
    for (const range of [
      `bytes=${big.length}-`,
      `bytes=${big.length + 5}-${big.length + 9}`,
      'bytes=-0',
    ]) {
      const res = await get(url, 'alice', { range });
      expect(res.statusCode, range).toBe(416);
      expect(res.headers['content-range']).toBe(`bytes */${big.length}`);
    }
  });

  it('answers the whole file to ranges it does not honour', async () => {
    for (const range of ['bytes=0-9,20-29', 'bytes=9-0', 'items=0-9', 'bytes=abc']) {
      const res = await get(url, 'alice', { range });
      expect(res.statusCode, range).toBe(200);
      expect(res.rawPayload.equals(big), range).toBe(true);
    }
  });

  it('honours If-Range only for the current ETag', async () => {
    const { etag = '' } = (await get(url, 'alice')).headers;
    const current = await get(url, 'alice', { range: 'bytes=0-9', 'if-range': etag });
    expect(current.statusCode).toBe(206);
    const old = await get(url, 'alice', { range: 'bytes=0-9', 'if-range': '"old"' });
    expect(old.statusCode).toBe(200);
    expect(old.rawPayload.equals(big)).toBe(true);
  });

  it('parses ranges as RFC 9110 says', () => {
    expect(parseRange(undefined, 100)).toBeUndefined();
    expect(parseRange('bytes=0-0', 100)).toEqual({ start: 0, end: 0 });
    expect(parseRange('bytes=90-', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange('bytes=-500', 100)).toEqual({ start: 0, end: 99 });
    expect(parseRange('bytes=0-99999999999999999999', 100)).toEqual({ start: 0, end: 99 });
    expect(parseRange('bytes=100-', 100)).toBe('unsatisfiable');
    expect(parseRange('bytes=-1', 0)).toBe('unsatisfiable');
    expect(parseRange('bytes=-', 100)).toBeUndefined();
    expect(parseRange('bytes=5-4', 100)).toBeUndefined();
    expect(parseRange('bytes=1-2, 4-5', 100)).toBeUndefined();
  });

  it('matches If-None-Match lists weakly', () => {
    expect(matchesEntityTag(undefined, '"a"')).toBe(false);
    expect(matchesEntityTag('"a"', '"a"')).toBe(true);
    expect(matchesEntityTag('W/"a"', '"a"')).toBe(true);
    expect(matchesEntityTag('"b" , "a"', '"a"')).toBe(true);
    expect(matchesEntityTag('"b"', '"a"')).toBe(false);
    expect(matchesEntityTag('*', '"a"')).toBe(true);
  });
});
