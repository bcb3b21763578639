import { execFileSync, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  API_ROUTES,
  zipDownloadProgressSchema,
  zipDownloadTicketSchema,
  zipFileUrl,
  zipProgressUrl,
  type ZipDownloadTicket,
} from '@tessera/contract';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordHdImage } from '../../testing/database.js';
import { signIn } from '../../testing/http.js';
import { memoryWatch } from '../../testing/memory.js';
import { startTestServer, type TestServer } from '../../testing/test-server.js';

/**
 * Issue 13, feature 10 over real HTTP, a real SQLite file and real image files: a selection as
 * one ZIP, opened with Info-ZIP's `unzip`, to its owner only, streamed without holding the file.
 */

let t: TestServer;
let alice: string;
let bob: string;
let scratch: string;
/** Alice's LD images and their bytes. */
const ldImages = new Map<string, Buffer>();

beforeAll(async () => {
  t = await startTestServer(['alice', 'bob'], 'embedded');
  [alice, bob] = await Promise.all([signIn(t.server.url, 'alice'), signIn(t.server.url, 'bob')]);
  scratch = await fsp.mkdtemp(path.join(t.dataDir, 'zip-test-'));
  const client = await t.connect('alice');
  // Noise does not compress: each file is a real PNG of some size, and no two are alike.
  for (const [name, side] of [
    ['rust-wall.png', 160],
    ['moss stone (2).png', 96],
    ['ñandú-tiles.png', 64],
  ] as const) {
    const png = await sharp(randomBytes(side * side * 3), {
      raw: { width: side, height: side, channels: 3 },
    })
      .png()
      .toBuffer();
    ldImages.set(name, png);
    await t.files.write('alice', 'ld', name, png);
  }
  expect((await client.call('refresh-low-definition')).success).toBe(true);
}, 60_000);
afterAll(async () => {
  await t?.stop();
});

const url = (route: string) => `${t.server.url}${route}`;

function requestZip(cookie: string, body: unknown): Promise<Response> {
  return fetch(url(API_ROUTES.zipCreate), {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

async function ticketFor(cookie: string, body: unknown): Promise<ZipDownloadTicket> {
  const res = await requestZip(cookie, body);
  expect(res.status).toBe(200);
  return zipDownloadTicketSchema.parse(await res.json());
}

const getZip = (cookie: string, token: string, signal?: AbortSignal) =>
  fetch(url(zipFileUrl(token)), { headers: { cookie }, signal: signal ?? null });

async function progressOf(cookie: string, token: string) {
  const res = await fetch(url(zipProgressUrl(token)), { headers: { cookie } });
  return { status: res.status, body: (await res.json()) as unknown };
}

/**
 * What a streamed download of the 300 MB HD image may keep alive in this process (heap and
 * buffers, after a full garbage collection), at most: half the file, which holding it whole
 * would pass.
 */
const STREAMING_BOUND = 150 * 1024 * 1024;

/**
 * Downloads a ZIP to a file through Node's own HTTP client, whose stream keeps to its
 * high-water mark: no web-stream queue of the test's own between the server and the disk. Its
 * Content-Length.
 */
function downloadZip(cookie: string, token: string, file: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get(url(zipFileUrl(token)), { headers: { cookie } }, (res) => {
        const length = Number(res.headers['content-length']);
        pipeline(res, fs.createWriteStream(file)).then(() => resolve(length), reject);
      })
      .on('error', reject);
  });
}

/** Streams a response body to a file, never holding it whole. */
async function saveBody(res: Response, file: string): Promise<void> {
  if (!res.body) throw new Error('no body');
  await pipeline(Readable.fromWeb(res.body), fs.createWriteStream(file));
}

/** The entry names of a ZIP as Info-ZIP's `unzip` reads them. */
function zipEntries(file: string): string[] {
  return execFileSync('unzip', ['-Z1', file], { encoding: 'utf8' }).split('\n').filter(Boolean);
}

/** One entry's bytes as `unzip -p` extracts them (for small entries). */
function extracted(file: string, entry: string): Buffer {
  return execFileSync('unzip', ['-p', file, entry], { maxBuffer: 64 * 1024 * 1024 });
}

/** The SHA-256 of an entry as `unzip -p` streams it out, for entries too big to hold. */
function extractedHash(file: string, entry: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    const child = spawn('unzip', ['-p', file, entry]);
    child.stdout.on('data', (chunk: Buffer) => hash.update(chunk));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve(hash.digest('hex')) : reject(new Error(`unzip exited ${code}`)),
    );
  });
}

async function fileHash(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of fs.createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

describe('a selection as one ZIP (POST /api/command/zip-download, GET /api/images/zip/:token)', () => {
  it('holds the selected images, byte for byte, stored, with the exact Content-Length', async () => {
    const names = [...ldImages.keys()];
    const ticket = await ticketFor(alice, { kind: 'ld', files: names });
    expect(ticket.files).toBe(3);
    expect(ticket.filename).toMatch(/^tessera-ld-\d{4}-\d{2}-\d{2}-\d{4}\.zip$/);
    expect(await progressOf(alice, ticket.token)).toEqual({
      status: 200,
      body: { state: 'waiting', sent: 0 },
    });

    const res = await getZip(alice, ticket.token);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    expect(res.headers.get('content-disposition')).toContain(`filename="${ticket.filename}"`);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const length = Number(res.headers.get('content-length'));
    const file = path.join(scratch, 'ld.zip');
    await saveBody(res, file);
    expect((await fsp.stat(file)).size).toBe(length);

    execFileSync('unzip', ['-tq', file]); // every entry's CRC checks out
    expect(zipEntries(file).sort()).toEqual([...names].sort());
    for (const [name, bytes] of ldImages) expect(extracted(file, name).equals(bytes)).toBe(true);
    // Stored, not deflated: PNG and JPEG are compressed already.
    const listing = execFileSync('unzip', ['-Zv', file], { encoding: 'utf8' });
    expect(listing).not.toMatch(/compression method:\s+deflated/);
    expect(listing).toMatch(/compression method:\s+none \(stored\)/);

    await expect
      .poll(async () => (await progressOf(alice, ticket.token)).body)
      .toEqual({ state: 'sent', sent: length, total: length });
    // One download per token.
    const again = await getZip(alice, ticket.token);
    expect(again.status).toBe(404);
  });

  it("refuses another user's images, paths and malformed selections: no token, nothing served", async () => {
    const refused = async (cookie: string, body: unknown, status: number) => {
      const res = await requestZip(cookie, body);
      expect(res.status).toBe(status);
      const answer = (await res.json()) as Record<string, unknown>;
      expect(answer).not.toHaveProperty('token');
      return answer;
    };
    // Bob names Alice's images: to him they do not exist; mixing in nothing of his changes that.
    expect(await refused(bob, { kind: 'ld', files: ['rust-wall.png'] }, 404)).toEqual({
      error: 'No such image: rust-wall.png',
    });
    // Alice's own image, asked for from the other gallery.
    await refused(alice, { kind: 'hd', files: ['rust-wall.png'] }, 404);
    await refused(alice, { kind: 'ld', files: ['rust-wall.png', 'not-mine.png'] }, 404);
    for (const trick of [
      '../bob/ld/x.png',
      '../../tessera.sqlite',
      'ld/rust-wall.png',
      '..',
      '.tmp-aaaaaaaaaaaa-rust-wall.png',
      'rust-wall.png\u0000.zip',
      '/etc/passwd',
      'C:\\Windows\\win.ini',
    ]) {
      await refused(alice, { kind: 'ld', files: ['rust-wall.png', trick] }, 400);
    }
    await refused(alice, { kind: 'ld', files: [] }, 400);
    await refused(alice, { kind: 'input', files: ['rust-wall.png'] }, 400);
    await refused(alice, { kind: 'ld', files: 'rust-wall.png' }, 400);
    await refused(alice, 'not json', 400);
    await refused(alice, { kind: 'ld', files: Array(1001).fill('rust-wall.png') }, 400);
    expect((await requestZip('', { kind: 'ld', files: ['rust-wall.png'] })).status).toBe(401);
  });

  it("does not serve Alice's token to Bob, nor tell him its progress; it stays hers", async () => {
    const ticket = await ticketFor(alice, { kind: 'ld', files: ['rust-wall.png'] });
    const stolen = await getZip(bob, ticket.token);
    expect(stolen.status).toBe(404);
    expect(stolen.headers.get('content-type')).not.toBe('application/zip');
    expect((await progressOf(bob, ticket.token)).status).toBe(404);
    expect((await fetch(url(zipFileUrl(ticket.token)))).status).toBe(401);
    expect((await getZip(alice, 'not-a-token')).status).toBe(404);
    // Bob's tries did not use it up.
    const res = await getZip(alice, ticket.token);
    expect(res.status).toBe(200);
    const file = path.join(scratch, 'one.zip');
    await saveBody(res, file);
    expect(
      extracted(file, 'rust-wall.png').equals(ldImages.get('rust-wall.png') ?? Buffer.of()),
    ).toBe(true);
  });

  describe('a large HD image', () => {
    const HD_BYTES = 300 * 1024 * 1024;
    const hdName = 'huge-wall_320x140.jpg';
    let hdFile: string;

    beforeAll(async () => {
      // 300 MB, mostly a hole (no disk written), with random blocks through it so a mix-up of
      // offsets would show in the hash. Recorded as an HD job would record it.
      hdFile = t.storedPath('alice', 'hd', hdName);
      await fsp.mkdir(path.dirname(hdFile), { recursive: true });
      const handle = await fsp.open(hdFile, 'w');
      await handle.truncate(HD_BYTES);
      for (let offset = 0; offset < HD_BYTES; offset += 16 * 1024 * 1024) {
        await handle.write(randomBytes(64 * 1024), 0, 64 * 1024, offset);
      }
      await handle.close();
      await recordHdImage(t.db, 'alice', {
        filename: hdName,
        width: 17000,
        height: 7400,
        bytes: HD_BYTES,
        metadata: {},
      });
    });

    it('streams from disk: the server grows by far less than the file while sending it', async () => {
      const ticket = await ticketFor(alice, { kind: 'hd', files: [hdName] });
      // The client reads as fast as it can and keeps nothing: the download goes to disk.
      // Measured as what is alive (garbage not yet collected is not counted); RSS, which keeps
      // freed memory as the allocator pleases, is only reported.
      const memory = memoryWatch();
      const rssBefore = process.memoryUsage().rss;
      let peakRss = rssBefore;
      const sampler = setInterval(() => {
        peakRss = Math.max(peakRss, process.memoryUsage().rss);
      }, 10);
      const file = path.join(scratch, 'hd.zip');
      let length: number;
      try {
        length = await downloadZip(alice, ticket.token, file);
      } finally {
        clearInterval(sampler);
        memory.stop();
      }
      console.info(
        `HD ZIP of ${length} bytes: alive +${mb(memory.liveGrowth())} MB, ` +
          `RSS +${mb(peakRss - rssBefore)} MB (from ${mb(rssBefore)} MB)`,
      );
      expect(length).toBeGreaterThan(HD_BYTES);
      expect((await fsp.stat(file)).size).toBe(length);
      // Both server and client of this test run in this process, and still well under the file.
      expect(memory.liveGrowth()).toBeLessThan(STREAMING_BOUND);

      expect(zipEntries(file)).toEqual([hdName]);
      expect(await extractedHash(file, hdName)).toBe(await fileHash(hdFile));
      await fsp.rm(file);
    }, 120_000);

    it('a download broken off midway ends as failed and leaves no file open', async () => {
      const openFiles = () => fs.readdirSync('/proc/self/fd').length;
      const before = openFiles();
      const ticket = await ticketFor(alice, { kind: 'hd', files: [hdName] });
      const abort = new AbortController();
      const res = await getZip(alice, ticket.token, abort.signal);
      const reader = res.body?.getReader();
      let received = 0;
      while (received < 8 * 1024 * 1024) {
        const chunk = await reader?.read();
        if (!chunk || chunk.done) break;
        received += chunk.value.byteLength;
      }
      abort.abort();
      await expect
        .poll(async () =>
          zipDownloadProgressSchema.parse((await progressOf(alice, ticket.token)).body),
        )
        .toMatchObject({ state: 'failed', error: 'The download stopped before the end' });
      const progress = zipDownloadProgressSchema.parse(
        (await progressOf(alice, ticket.token)).body,
      );
      expect(progress.sent).toBeLessThan(progress.total ?? 0);
      await expect.poll(openFiles).toBeLessThanOrEqual(before);
    }, 60_000);
  });
});

function mb(bytes: number): string {
  return (bytes / 1024 / 1024).toFixed(1);
}
