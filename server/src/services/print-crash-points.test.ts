import fs from 'node:fs';
import path from 'node:path';
import { API_ROUTES, PRINT_DEFAULT_SETTINGS, printPixelSize } from '@tessera/contract';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LocalFileStore } from '../files/local-file-store.js';
import { openDatabase } from '../store/database.js';
import { createImageRepository } from '../store/images.js';
import { createUserRepository } from '../store/users.js';
import { passwordOf, tempDir } from '../testing/fixtures.js';
import { signIn } from '../testing/http.js';
import { JOB_END_LINE, startServerProcess } from '../testing/processes.js';
import { printFileName } from './print-files.js';
import { UserService } from './users.js';

// The print job's crash points (issue 26, part 1; docs/reliability.md): the server, a real
// process, kills itself with SIGKILL right after the print file is written, or right after its
// row; after a restart the job has finished once, the file is there once under its name with its
// row, and nothing temporary is left.

const USER = 'alice';
const HD = 'tile-1a2b_30x30.png';
const ORDER = { ...PRINT_DEFAULT_SETTINGS, dpi: 72, image: HD };
let data: ReturnType<typeof tempDir>;

beforeEach(async () => {
  data = tempDir();
  const db = await openDatabase({ dataDir: data.dir });
  try {
    await new UserService(createUserRepository(db)).add(USER, passwordOf(USER));
    const ownerId = (await createUserRepository(db).findByUsername(USER))?.id ?? 0;
    // An LD image and its HD image, as the HD service leaves them: files, thumbnails, rows.
    const files = new LocalFileStore(path.join(data.dir, 'files'));
    const images = createImageRepository(db);
    const png = await sharp({
      create: { width: 600, height: 600, channels: 3, background: '#a05030' },
    })
      .png()
      .toBuffer();
    const ld = await images.insert({
      ownerId,
      kind: 'ld',
      filename: 'tile-1a2b.png',
      sourceImageId: null,
      width: 600,
      height: 600,
      bytes: png.length,
      metadata: { seamless: true },
      createdAt: '2026-01-01T00:00:00.000Z',
    });
    await images.insert({
      ownerId,
      kind: 'hd',
      filename: HD,
      sourceImageId: ld.id,
      width: 600,
      height: 600,
      bytes: png.length,
      metadata: { size: '30x30', source_image: 'tile-1a2b.png' },
      createdAt: '2026-01-01T00:00:00.000Z',
    });
    for (const [area, name] of [
      ['ld', 'tile-1a2b.png'],
      ['ld-thumbnails', 'tile-1a2b.png.webp'],
      ['hd', HD],
      ['hd-thumbnails', `${HD}.webp`],
    ] as const) {
      await files.write(USER, area, name, png);
    }
  } finally {
    await db.destroy();
  }
});
afterEach(() => data.remove());

/** The server, a real process; with a fault point, it kills itself there. */
const start = (faultPoint?: string) =>
  startServerProcess(data.dir, faultPoint ? { TESSERA_FAULT_POINT: faultPoint } : {});

async function rows<T>(read: (db: Awaited<ReturnType<typeof openDatabase>>) => Promise<T>) {
  const db = await openDatabase({ dataDir: data.dir });
  try {
    return await read(db);
  } finally {
    await db.destroy();
  }
}

const printFolder = path.join('files', USER, 'print');

describe('crash points of a print file', () => {
  it.each(['print:file-written', 'print:recorded'])(
    'killed at %s: after a restart the file is made once, under its name, with its row',
    async (step) => {
      const first = await start(step);
      const cookie = await signIn(first.url, USER);
      const ordered = await fetch(`${first.url}${API_ROUTES.printOrder}`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json' },
        body: JSON.stringify(ORDER),
      });
      expect(ordered.status).toBe(202);
      expect((await first.done).code).toBeNull(); // killed at its fault point

      const second = await start();
      const jobs = () => rows((db) => db.selectFrom('jobs').select(['kind', 'status']).execute());
      if ((await jobs()).some((job) => job.status !== 'finished')) {
        await second.output.waitFor(JOB_END_LINE, 60_000);
      }
      second.server.kill('SIGTERM');
      await second.done;

      const name = printFileName(HD, ORDER);
      expect(await jobs()).toEqual([{ kind: 'print', status: 'finished' }]);
      expect(await rows((db) => db.selectFrom('print_files').select('filename').execute())).toEqual(
        [{ filename: name }],
      );
      expect(fs.readdirSync(path.join(data.dir, printFolder))).toEqual([name]);
      const tmp = path.join(data.dir, 'tmp');
      expect(fs.existsSync(tmp) ? fs.readdirSync(tmp) : []).toEqual([]);
      const meta = await sharp(path.join(data.dir, printFolder, name)).metadata();
      const size = printPixelSize({ widthCm: 30, heightCm: 30 }, 72, ORDER.bleedMm);
      expect([meta.width, meta.height]).toEqual([size.width, size.height]);
    },
    240_000,
  );
});
