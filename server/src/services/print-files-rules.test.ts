import { errorText, PRINT_DEFAULT_SETTINGS, type PrintOrder } from '@tessera/contract';
import { describe, expect, it, vi } from 'vitest';
import type { FileStore, PendingRemoval, Scratch, ScratchFile } from '../files/file-store.js';
import { SRGB_PROFILE, type PrintProfiles } from '../imaging/print/profiles.js';
import type { PrintRenderer } from '../imaging/print/renderer.js';
import type { JobRecord } from '../jobs/job.js';
import { QueueFullError, type OwnerQueue } from '../jobs/queue.js';
import { PermanentJobError, type JobContext, type JobScheduler } from '../jobs/runner.js';
import type { ImageRecord, ImageRepository } from '../store/images.js';
import type { PrintFileRecord, PrintFileRepository } from '../store/print-files.js';
import { silentLogger } from '../testing/fixtures.js';
import { imageRecord, jobRecord } from '../testing/records.js';
import { strictFake } from '../testing/strict-fake.js';
import type { Owner } from '../owner.js';
import { printFileName, PrintFileService } from './print-files.js';

// The print-file rules on strict fakes of the images and print-files tables, the file store, the
// queue, the scheduler, the profiles and the renderer: no database, no libvips.
// (services/print-files.test.ts runs the same pipeline whole.)

const alice: Owner = { id: 1, username: 'alice' };

/** An HD image of 30x30 cm (2150 px a side), made from a seamless LD image. */
const HD = imageRecord({
  id: 9,
  ownerId: alice.id,
  kind: 'hd',
  filename: 'tile-1a2b_30x30.png',
  sourceImageId: 7,
  width: 2150,
  height: 2150,
  bytes: 1000,
  metadata: { size: '30x30', source_image: 'tile-1a2b.png' },
});
const LD: ImageRecord = {
  ...HD,
  id: 7,
  kind: 'ld',
  filename: 'tile-1a2b.png',
  sourceImageId: null,
  metadata: { seamless: true },
};

const ORDER: PrintOrder = { ...PRINT_DEFAULT_SETTINGS, image: HD.filename };

function imagesHolding(held: ImageRecord[]): ImageRepository {
  return strictFake<ImageRepository>('images', {
    find: (ownerId, kind, filename) =>
      Promise.resolve(
        held.find((i) => i.ownerId === ownerId && i.kind === kind && i.filename === filename),
      ),
  });
}

const profiles = strictFake<PrintProfiles>('profiles', {
  find: (id) => Promise.resolve(id === 'srgb' ? SRGB_PROFILE : undefined),
});

function printJob(fields: Partial<JobRecord<'print'>> = {}): JobRecord<'print'> {
  return {
    ...jobRecord(
      {
        kind: 'print',
        params: { owner: alice, image: HD.filename, settings: PRINT_DEFAULT_SETTINGS },
      },
      {
        id: 5,
        publicId: 'job-5',
        ownerId: alice.id,
        maxAttempts: 2,
        dedupeKey: 'print:tile-1a2b_30x30.png:360:3:lzw:8:srgb',
        createdAt: '2026-01-02T00:00:00.000Z',
      },
    ),
    ...fields,
  };
}

/** The scheduler's enqueue is generic over the kind of job; this fake answers for print jobs. */
function printOnly<F>(fake: (...args: never[]) => unknown): F {
  return fake as unknown as F;
}

function service(parts: {
  images?: ImageRepository;
  printFiles?: PrintFileRepository;
  files?: FileStore;
  jobs?: OwnerQueue;
  scheduler?: JobScheduler;
  renderer?: PrintRenderer;
}): PrintFileService {
  return new PrintFileService(
    parts.images ?? imagesHolding([HD, LD]),
    parts.printFiles ?? strictFake('printFiles'),
    parts.files ?? strictFake('files'),
    parts.jobs ?? strictFake('jobs'),
    parts.scheduler ?? strictFake('scheduler'),
    profiles,
    parts.renderer ?? strictFake('renderer'),
    silentLogger,
  );
}

const context = (fields: Partial<JobContext> = {}): JobContext => ({
  progress: () => undefined,
  signal: new AbortController().signal,
  reserveOutput: () => Promise.resolve(),
  remote: { queued: () => Promise.resolve() },
  ...fields,
});

describe('PrintFileService.order', () => {
  it('queues one job for the HD image with its settings, keyed by both', async () => {
    const enqueue = vi.fn(() => Promise.resolve(printJob()));
    const ordered = await service({
      scheduler: strictFake<JobScheduler>('scheduler', { enqueue: printOnly(enqueue) }),
    }).order(alice, ORDER);
    expect(enqueue).toHaveBeenCalledWith(
      expect.objectContaining({
        kind: 'print',
        ownerId: alice.id,
        params: { owner: alice, image: HD.filename, settings: PRINT_DEFAULT_SETTINGS },
        dedupeKey: 'print:tile-1a2b_30x30.png:360:3:lzw:8:srgb',
      }),
    );
    // 30 cm + 2 × 3 mm at 360 dpi: 30.6 / 2.54 × 360 = 4337 px a side.
    expect(ordered).toEqual({
      ok: true,
      value: expect.objectContaining({ status: 'queued', width: 4337, height: 4337 }),
    });
  });

  it('refuses the same image and settings while under way, a full queue, an unknown profile, an image not the owner’s', async () => {
    const already = service({
      scheduler: strictFake<JobScheduler>('scheduler', {
        enqueue: () => Promise.resolve(undefined),
      }),
    });
    expect(await already.order(alice, ORDER)).toEqual({
      ok: false,
      status: 409,
      error: errorText('PRINT_ALREADY_ORDERED'),
    });
    const full = service({
      scheduler: strictFake<JobScheduler>('scheduler', {
        enqueue: () => Promise.reject(new QueueFullError(3)),
      }),
    });
    expect(await full.order(alice, ORDER)).toEqual({
      ok: false,
      status: 429,
      error: errorText('PRINT_QUEUE_FULL', 3),
    });
    // The strict scheduler fails the test if anything is queued for these.
    expect(await service({}).order(alice, { ...ORDER, profile: 'fogra39.icc' })).toEqual({
      ok: false,
      status: 400,
      error: errorText('PRINT_PROFILE_UNKNOWN', 'fogra39.icc'),
    });
    for (const image of ['elsewhere.png', LD.filename]) {
      expect(await service({}).order(alice, { ...ORDER, image })).toEqual({
        ok: false,
        status: 404,
        error: errorText('ORDERED_IMAGE_NOT_FOUND', image),
      });
    }
  });

  it('names each image and settings apart, so no two orders share a file', () => {
    const names = new Set(
      [
        PRINT_DEFAULT_SETTINGS,
        { ...PRINT_DEFAULT_SETTINGS, dpi: 300 },
        { ...PRINT_DEFAULT_SETTINGS, bleedMm: 2.5 },
        { ...PRINT_DEFAULT_SETTINGS, compression: 'deflate' as const },
        { ...PRINT_DEFAULT_SETTINGS, bitDepth: 16 as const },
        { ...PRINT_DEFAULT_SETTINGS, profile: 'Coated FOGRA39.icc' },
      ].map((settings) => printFileName(HD.filename, settings)),
    );
    expect(names.size).toBe(6);
    expect(printFileName(HD.filename, PRINT_DEFAULT_SETTINGS)).toBe(
      'tile-1a2b_30x30_360dpi_3mm_srgb_8bit_lzw.tif',
    );
  });
});

describe('PrintFileService.runPrint', () => {
  const filename = printFileName(HD.filename, PRINT_DEFAULT_SETTINGS);
  const recorded: PrintFileRecord = {
    ownerId: alice.id,
    imageId: HD.id,
    jobId: 'job-5',
    settings: PRINT_DEFAULT_SETTINGS,
    filename,
    bytes: 123,
    width: 4337,
    height: 4337,
    createdAt: '2026-01-03T00:00:00.000Z',
  };

  it('fails for good when the HD image is gone', async () => {
    const run = service({ images: imagesHolding([]) }).runPrint(printJob(), context());
    await expect(run).rejects.toBeInstanceOf(PermanentJobError);
  });

  it('after a crash past its record, finds it and makes nothing again', async () => {
    const done = await service({
      printFiles: strictFake<PrintFileRepository>('printFiles', {
        find: () => Promise.resolve(recorded),
      }),
    }).runPrint(printJob({ output: filename, status: 'in_progress' }), context());
    expect(done).toBe(filename);
  });

  it('renders into a scratch file, writes it under the reserved name, wraps a seamless image, records it', async () => {
    const put = vi.fn(() =>
      Promise.resolve({ name: filename, bytes: 456, modifiedAt: new Date() }),
    );
    const output = strictFake<ScratchFile>('output', { path: '/scratch/out.tif', putInto: put });
    const scratch = strictFake<Scratch>('scratch', {
      newFile: () => output,
      copyOf: () => Promise.resolve('/scratch/hd.png'),
      dispose: () => Promise.resolve(),
    });
    const render = vi.fn(() => Promise.resolve({ width: 4337, height: 4337, bytes: 456 }));
    const record = vi.fn(() => Promise.resolve());
    const reserve = vi.fn(() => Promise.resolve());
    const done = await service({
      files: strictFake<FileStore>('files', { openScratch: () => Promise.resolve(scratch) }),
      printFiles: strictFake<PrintFileRepository>('printFiles', {
        find: () => Promise.resolve(undefined),
        record,
      }),
      renderer: strictFake<PrintRenderer>('renderer', { render }),
    }).runPrint(printJob({ status: 'in_progress' }), context({ reserveOutput: reserve }));
    expect(done).toBe(filename);
    expect(reserve).toHaveBeenCalledWith(filename);
    expect(render).toHaveBeenCalledWith(
      expect.objectContaining({
        sourcePath: '/scratch/hd.png',
        outputPath: '/scratch/out.tif',
        print: { widthCm: 30, heightCm: 30 },
        bleed: 'wrap',
        colourSpace: 'rgb',
        dpi: 360,
      }),
      expect.anything(),
    );
    expect(put).toHaveBeenCalledWith('alice', 'print', filename);
    expect(record).toHaveBeenCalledWith(
      expect.objectContaining({ filename, bytes: 456, jobId: 'job-5', imageId: HD.id }),
    );
  });
});

describe('PrintFileService.removeFor', () => {
  it('stops the HD image’s print jobs and removes its files', async () => {
    const cancel = vi.fn(() => Promise.resolve([printJob({ id: 11 })]));
    const abort = vi.fn();
    const commit = vi.fn(() => Promise.resolve());
    const prepare = vi.fn(() => Promise.resolve(strictFake<PendingRemoval>('removal', { commit })));
    await service({
      jobs: strictFake<OwnerQueue>('jobs', { cancelByKeyPrefix: cancel }),
      scheduler: strictFake<JobScheduler>('scheduler', { abortCancelled: abort }),
      files: strictFake<FileStore>('files', { prepareRemoval: prepare }),
      printFiles: strictFake<PrintFileRepository>('printFiles', {
        ofImage: () =>
          Promise.resolve([{ filename: 'a.tif' }, { filename: 'b.tif' }] as PrintFileRecord[]),
      }),
    }).removeFor(alice, HD);
    expect(cancel).toHaveBeenCalledWith(
      alice.id,
      'print',
      `print:${HD.filename}:`,
      expect.any(Date),
    );
    expect(abort).toHaveBeenCalledWith([11]);
    expect(prepare.mock.calls).toEqual([
      ['alice', 'print', 'a.tif'],
      ['alice', 'print', 'b.tif'],
    ]);
    expect(commit).toHaveBeenCalledTimes(2);
  });

  it('leaves an LD image alone: it has no print files', async () => {
    await service({}).removeFor(alice, LD);
  });
});
