import path from 'node:path';
import { readSeriesFace, SERIES_METADATA_KEYS } from '@tessera/contract';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { FileStore } from '../files/file-store.js';
import { LocalFileStore } from '../files/local-file-store.js';
import { probeImage } from '../imaging/probe.js';
import type { JobRecord, PreviewJobParams } from '../jobs/job.js';
import type { JobContext } from '../jobs/runner-types.js';
import type { ImageRecord, ImageRepository, NewImage } from '../store/images.js';
import { silentLogger, tempDir } from '../testing/fixtures.js';
import { bricksPng } from '../testing/http.js';
import { PREVIEW_PARAMS } from '../testing/job-params.js';
import { jobRecord } from '../testing/records.js';
import { faceColour, seriesTestEngine, type SeriesTestEngine } from '../testing/series-engine.js';
import { strictFake } from '../testing/strict-fake.js';
import { GenerationService } from './generation.js';

// A preview job of a series (issue 25) on real files, a fake images table and a stand-in engine
// that writes each face in a colour of its own: names by face, one record per face, series
// metadata, and crash safety (a rerun after a crash at a step records each face exactly once).

const owner = PREVIEW_PARAMS.owner;
let data: ReturnType<typeof tempDir>;
let files: LocalFileStore;
let engine: SeriesTestEngine;
/** The images table: the rows inserted, in order. */
let rows: ImageRecord[];
let insert: ReturnType<typeof vi.fn<ImageRepository['insert']>>;

beforeEach(async () => {
  data = tempDir();
  files = new LocalFileStore(path.join(data.dir, 'files'));
  await files.write(owner.username, 'input', 'reference.png', await bricksPng(64, 64, 16));
  engine = seriesTestEngine();
  rows = [];
  insert = vi.fn((image: NewImage) => {
    const row = { ...image, id: rows.length + 1, starred: false, hdRemovedAt: null };
    rows.push(row);
    return Promise.resolve(row);
  });
});
afterEach(() => data.remove());

function serviceOn(store: FileStore = files, images?: Partial<ImageRepository>) {
  const table = strictFake<ImageRepository>('images', {
    find: (ownerId, kind, filename) =>
      Promise.resolve(
        rows.find((r) => r.ownerId === ownerId && r.kind === kind && r.filename === filename),
      ),
    insert,
    ...images,
  });
  return new GenerationService(
    table,
    store,
    strictFake('references'),
    strictFake('jobs'),
    strictFake('scheduler'),
    engine,
    silentLogger,
  );
}

function previewJob(faces: number | undefined, output: string | null): JobRecord<'preview'> {
  const params: PreviewJobParams = {
    ...PREVIEW_PARAMS,
    originalName: 'Tile Wall.png',
    seed: 77,
    width: 64,
    height: 64,
    ...(faces !== undefined && { faces }),
  };
  return jobRecord(
    { kind: 'preview', params },
    { ownerId: owner.id, status: 'in_progress', output, attempts: output === null ? 1 : 2 },
  );
}

/** Runs the job as the runner does; `reserved` holds the name it reserved. */
async function run(service: GenerationService, job: JobRecord<'preview'>) {
  const reserved: string[] = [];
  const context: JobContext = {
    progress: () => undefined,
    signal: new AbortController().signal,
    reserveOutput: (name) => {
      reserved.push(name);
      return Promise.resolve();
    },
    remote: { queued: () => Promise.resolve() },
  };
  const output = await service.runPreview(job, context);
  return { output, reserved };
}

const names = async (area: 'ld' | 'ld-thumbnails') =>
  (await files.list(owner.username, area)).map((file) => file.name).sort();

/** The colour of a stored LD image's first pixel. */
async function colourOf(filename: string) {
  const png = await files.readBuffer(owner.username, 'ld', filename);
  const { data: pixel } = await sharp(png)
    .extract({ left: 0, top: 0, width: 1, height: 1 })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { r: pixel[0], g: pixel[1], b: pixel[2] };
}

const faceNames = (seriesId: string, faces: number) =>
  Array.from({ length: faces }, (_, i) => `${seriesId}-f${i + 1}.png`);

/** A crash at one step: the process stops there (nothing after it runs). */
class Crash extends Error {}

/** The file store, but a write of `area` whose name passes `crashes` crashes before it happens. */
function crashingOn(area: string, crashes: (name: string) => boolean): FileStore {
  return new Proxy(files, {
    get(target, property) {
      if (property !== 'write') return Reflect.get(target, property, target) as unknown;
      return (...args: Parameters<FileStore['write']>) =>
        args[1] === area && crashes(args[2])
          ? Promise.reject(new Crash(`crash before ${area}/${args[2]}`))
          : target.write(...args);
    },
  });
}

describe('a preview job of a series (faces > 1)', { timeout: 90_000 }, () => {
  it('records every face as an LD image named by face, with series_id, face and faces; the output is face 1', async () => {
    const { output, reserved } = await run(serviceOn(), previewJob(4, null));

    expect(output).toMatch(/^Tile-Wall-[0-9a-f]{6}-f1\.png$/);
    expect(reserved).toEqual([output]);
    const seriesId = output.replace(/-f1\.png$/, '');
    expect(rows.map((r) => r.filename)).toEqual(faceNames(seriesId, 4));
    for (const [index, row] of rows.entries()) {
      expect(readSeriesFace(row.metadata)).toEqual({ seriesId, face: index + 1, faces: 4 });
      // The single image's metadata, plus the series' keys.
      expect(row.metadata).toMatchObject({
        input_image_path: 'reference.png',
        kseed: 77,
        latent_width: 64,
        engine: 'series-test',
      });
      expect([row.width, row.height, row.kind]).toEqual([64, 64, 'ld']);
      // Each face is the engine's own face, in order, and carries its metadata in the file.
      expect(await colourOf(row.filename)).toEqual(faceColour(77, index + 1));
      const probe = await probeImage(await files.readBuffer(owner.username, 'ld', row.filename));
      expect(probe?.embeddedMetadata).toEqual(row.metadata);
    }
    expect(await names('ld')).toEqual(faceNames(seriesId, 4));
    expect(await names('ld-thumbnails')).toEqual(faceNames(seriesId, 4).map((n) => `${n}.webp`));
    // One engine run for the series; face 1's path is the output path.
    expect(engine.calls).toHaveLength(1);
    const [call] = engine.calls;
    expect(call?.seriesPaths).toHaveLength(4);
    expect(call?.seriesPaths?.[0]).toBe(call?.outputPath);
    expect(new Set(call?.seriesPaths).size).toBe(4);
  });

  it.each([
    ['after face 2 is recorded', 'ld-thumbnails', 3, 2],
    ["after face 3's file is written, before its record", 'record', 3, 2],
    ['after face 1 is recorded', 'ld-thumbnails', 2, 1],
  ] as const)(
    'a crash %s: the rerun records each face exactly once',
    async (_when, step, face, recordedBefore) => {
      // The first run learns its names as it goes: a crash on face `face` of whatever it reserved.
      const first = previewJob(4, null);
      let seriesId = '';
      const table: Partial<ImageRepository> | undefined =
        step === 'record'
          ? {
              insert: (image) =>
                image.filename.endsWith(`-f${face}.png`)
                  ? Promise.reject(new Crash('crash before the record'))
                  : insert(image),
            }
          : undefined;
      const store =
        step === 'record' ? files : crashingOn(step, (name) => name.endsWith(`-f${face}.png.webp`));
      const reserved: string[] = [];
      await expect(
        serviceOn(store, table).runPreview(first, {
          progress: () => undefined,
          signal: new AbortController().signal,
          reserveOutput: (name) => {
            reserved.push(name);
            seriesId = name.replace(/-f1\.png$/, '');
            return Promise.resolve();
          },
          remote: { queued: () => Promise.resolve() },
        }),
      ).rejects.toBeInstanceOf(Crash);
      expect(rows.map((r) => r.filename)).toEqual(faceNames(seriesId, recordedBefore));

      // The runner's rerun: the job holds the reserved name.
      const again = await run(serviceOn(), previewJob(4, reserved[0] ?? null));
      expect(again.output).toBe(`${seriesId}-f1.png`);
      expect(again.reserved).toEqual([]);
      expect(rows.map((r) => r.filename).sort()).toEqual(faceNames(seriesId, 4));
      expect(rows.map((r) => readSeriesFace(r.metadata)?.face).sort()).toEqual([1, 2, 3, 4]);
      // What the crash left was overwritten, not added to.
      expect(await names('ld')).toEqual(faceNames(seriesId, 4));
      expect(await names('ld-thumbnails')).toEqual(faceNames(seriesId, 4).map((n) => `${n}.webp`));
      for (const row of rows) {
        expect(await colourOf(row.filename)).toEqual(
          faceColour(77, readSeriesFace(row.metadata)?.face ?? 0),
        );
      }

      // A third run finds every face recorded: nothing is made again.
      const calls = engine.calls.length;
      expect((await run(serviceOn(), previewJob(4, `${seriesId}-f1.png`))).output).toBe(
        `${seriesId}-f1.png`,
      );
      expect(engine.calls).toHaveLength(calls);
      expect(rows).toHaveLength(4);
    },
  );

  it("picks a base none of whose face names is taken (face 5's name is enough)", async () => {
    const asked: string[] = [];
    const store = new Proxy(files, {
      get(target, property) {
        if (property !== 'stat') return Reflect.get(target, property, target) as unknown;
        return (username: string, area: 'ld', name: string) => {
          asked.push(name);
          // The first base asked for has its face 5 taken (a series that lost faces 1 to 4).
          const taken = asked[0] !== undefined && name === asked[0].replace(/-f1\.png$/, '-f5.png');
          return taken
            ? Promise.resolve({ name, bytes: 1, modifiedAt: new Date() })
            : target.stat(username, area, name);
        };
      },
    });
    const { output } = await run(serviceOn(store), previewJob(3, null));
    const firstBase = (asked[0] ?? '').replace(/-f1\.png$/, '');
    expect(asked.slice(0, 12)).toEqual(faceNames(firstBase, 12));
    expect(output).toMatch(new RegExp(`^${firstBase}-[0-9a-f]{4}-f1\\.png$`));
    expect(rows).toHaveLength(3);
  });

  it('fails the attempt, recording nothing of the missing face, when the engine writes too few faces', async () => {
    const writesAll = engine;
    const lazy: SeriesTestEngine = {
      ...writesAll,
      generate: (params, progress, signal) =>
        writesAll.generate(
          { ...params, seriesPaths: params.seriesPaths?.slice(0, 2) },
          progress,
          signal,
        ),
    };
    engine = lazy;
    await expect(run(serviceOn(), previewJob(3, null))).rejects.toThrow(
      'The engine wrote no file for face 3',
    );
    expect(rows).toHaveLength(2);
  });
});

describe('a preview job of one image (faces absent or 1)', () => {
  it.each([undefined, 1])(
    'faces %s: one image, named and recorded as before series',
    async (faces) => {
      const { output, reserved } = await run(serviceOn(), previewJob(faces, null));
      expect(output).toMatch(/^Tile-Wall-[0-9a-f]{6}\.png$/);
      expect(reserved).toEqual([output]);
      expect(rows.map((r) => r.filename)).toEqual([output]);
      const [row] = rows;
      expect(Object.keys(row?.metadata ?? {})).toEqual([
        'input_image_path',
        'cliptextencode_585',
        'cliptextencode_716',
        'ksampler_cfg',
        'ksampler_denoise',
        'ipadapter_weight',
        'style',
        'kseed',
        'latent_width',
        'latent_height',
        'seamless',
        'mask',
        'synthesis',
        'engine',
        'created_at',
      ]);
      for (const key of Object.values(SERIES_METADATA_KEYS))
        expect(row?.metadata).not.toHaveProperty(key);
      expect(engine.calls[0]).not.toHaveProperty('seriesPaths');
      expect(await names('ld')).toEqual([output]);
    },
  );
});
