import { PRINT_DEFAULT_SETTINGS } from '@tessera/contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addOwner, freshDatabase, type TestDatabase } from '../testing/database.js';
import { createImageRepository, type ImageRepository } from './images.js';
import {
  createPrintFileRepository,
  type PrintFileRecord,
  type PrintFileRepository,
} from './print-files.js';

/** The print files of HD images (issue 26, part 1; migration 0019), on a real database. */
describe('PrintFileRepository', () => {
  let store: TestDatabase;
  let repo: PrintFileRepository;
  let images: ImageRepository;
  let ann: number;
  let bob: number;
  let hd: number;

  const hdImage = async (ownerId: number, filename: string) =>
    (
      await images.insert({
        ownerId,
        kind: 'hd',
        filename,
        sourceImageId: null,
        width: 2150,
        height: 2150,
        bytes: 1000,
        metadata: { size: '30x30' },
        createdAt: '2026-01-01T00:00:00.000Z',
      })
    ).id;

  const file = (fields: Partial<PrintFileRecord> = {}): PrintFileRecord => ({
    ownerId: ann,
    imageId: hd,
    jobId: 'job-1',
    settings: PRINT_DEFAULT_SETTINGS,
    filename: 'tile_30x30_360dpi_3mm_srgb_8bit_lzw.tif',
    // Past 2 GiB and 4 GiB: a 16-bit print of 580 MP is several gigabytes.
    bytes: 5_000_000_000,
    width: 4336,
    height: 4336,
    createdAt: '2026-01-02T00:00:00.000Z',
    ...fields,
  });

  beforeEach(async () => {
    store = await freshDatabase();
    repo = createPrintFileRepository(store.db);
    images = createImageRepository(store.db);
    ann = await addOwner(store.db, 'ann');
    bob = await addOwner(store.db, 'bob');
    hd = await hdImage(ann, 'tile_30x30.png');
  });
  afterEach(async () => {
    await store.close();
  });

  it("records a print file and lists an image's files newest first, each as recorded", async () => {
    const older = file();
    const newer = file({
      jobId: 'job-2',
      settings: { ...PRINT_DEFAULT_SETTINGS, dpi: 300, bitDepth: 16, compression: 'deflate' },
      filename: 'tile_30x30_300dpi_3mm_srgb_16bit_deflate.tif',
      createdAt: '2026-01-03T00:00:00.000Z',
    });
    await repo.record(older);
    await repo.record(newer);
    expect(await repo.ofImage(hd)).toEqual([newer, older]);
    expect(await repo.find(ann, older.filename)).toEqual(older);
  });

  it("finds only the owner's files, and lists only the image's", async () => {
    await repo.record(file());
    const bobs = await hdImage(bob, 'tile_30x30.png');
    await repo.record(file({ ownerId: bob, imageId: bobs, jobId: 'job-b' }));
    expect((await repo.find(bob, file().filename))?.jobId).toBe('job-b');
    expect((await repo.ofImage(bobs)).map((f) => f.jobId)).toEqual(['job-b']);
    expect((await repo.ofImage(hd)).map((f) => f.jobId)).toEqual(['job-1']);
  });

  it('records a file made again under its name in place of the old one', async () => {
    await repo.record(file());
    await repo.record(
      file({ jobId: 'job-again', bytes: 42, createdAt: '2026-02-01T00:00:00.000Z' }),
    );
    expect(await repo.ofImage(hd)).toEqual([
      file({ jobId: 'job-again', bytes: 42, createdAt: '2026-02-01T00:00:00.000Z' }),
    ]);
  });

  it('refuses a file of an image that is gone, and its files go with the image', async () => {
    await repo.record(file());
    await images.remove(ann, [hd]);
    expect(await repo.find(ann, file().filename)).toBeUndefined();
    await expect(repo.record(file())).rejects.toThrow();
    expect(await repo.ofImage(hd)).toEqual([]);
  });
});
