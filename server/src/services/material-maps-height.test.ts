import { Readable } from 'node:stream';
import {
  DEFAULT_HEIGHT_SETTINGS,
  errorText,
  MATERIAL_MAPS,
  type HeightSettings,
} from '@tessera/contract';
import { describe, expect, it, vi } from 'vitest';
import type { FileStore } from '../files/file-store.js';
import type {
  MadeMaterialMaps,
  MakeMapsOptions,
  MaterialMapsMaker,
} from '../imaging/material-maps/maker.js';
import type { JobOrder, JobRecord, MapsJobParams } from '../jobs/job.js';
import type { OwnerQueue } from '../jobs/queue.js';
import type { JobContext, JobScheduler } from '../jobs/runner.js';
import type { ImageRepository } from '../store/images.js';
import type {
  MaterialMapRepository,
  MaterialMapSet,
  StoredMaterialMapSet,
} from '../store/material-maps.js';
import { silentLogger } from '../testing/fixtures.js';
import { imageRecord, jobRecord } from '../testing/records.js';
import { strictFake } from '../testing/strict-fake.js';
import type { Owner } from '../owner.js';
import { MaterialMapService } from './material-maps.js';

// How the maps read the height (issue 26, part 4), on strict fakes of the service's ports: the
// order carries the settings to the job, the job to the maker and the set, the set to the status.

const ann: Owner = { id: 1, username: 'ann' };
const WALL = imageRecord({
  ownerId: ann.id,
  filename: 'wall.png',
  width: 64,
  height: 64,
  metadata: { seamless: true },
});
const INVERTED: HeightSettings = { invert: true, strength: 2.5 };
const KEY = 'maps:ld:wall.png';

function mapsJob(params: Partial<MapsJobParams>, status: JobRecord['status']): JobRecord<'maps'> {
  return jobRecord(
    { kind: 'maps', params: { owner: ann, kind: 'ld', image: 'wall.png', ...params } },
    { id: 3, publicId: 'job-3', ownerId: ann.id, status, maxAttempts: 2, dedupeKey: KEY },
  );
}

/**
 * The queue's and the scheduler's methods are generic over the kind of job; a fake of one
 * answers for maps jobs only, which is all this service asks of them.
 */
function mapsOnly<F>(fake: (...args: never[]) => unknown): F {
  return fake as unknown as F;
}

interface World {
  /** The job the queue holds live for the image, if any: enqueue dedupes against it. */
  live?: JobRecord<'maps'>;
  /** The image's recorded set, if any. */
  set?: StoredMaterialMapSet;
}

/** The service over fakes answering as the real ports do for `world`; what it did, recorded. */
function serviceIn(world: World) {
  const enqueue = vi.fn((order: JobOrder<'maps'>) => {
    if (world.live) return Promise.resolve(undefined);
    world.live = mapsJob(order.params, 'queued');
    return Promise.resolve(world.live);
  });
  const replace = vi.fn((_owner: number, _image: number, set: MaterialMapSet, madeAt: string) => {
    world.set = { ...set, madeAt };
    return Promise.resolve();
  });
  const make = vi.fn((_image: Readable, _options: MakeMapsOptions) =>
    Promise.resolve<MadeMaterialMaps>({
      width: 64,
      height: 64,
      maxRowsHeld: 64,
      maps: MATERIAL_MAPS.map((map) => ({
        map,
        bytes: 3,
        open: () => Readable.from([Buffer.from(map)]),
        openPreview: () => Readable.from([Buffer.from(map)]),
      })),
      openColourPreview: () => Readable.from([Buffer.from('colour')]),
      dispose: () => Promise.resolve(),
    }),
  );
  const service = new MaterialMapService(
    strictFake<ImageRepository>('images', {
      find: (ownerId, kind, filename) =>
        Promise.resolve(
          ownerId === ann.id && kind === 'ld' && filename === WALL.filename ? WALL : undefined,
        ),
    }),
    strictFake<MaterialMapRepository>('maps', {
      ofImage: (imageId) => Promise.resolve(imageId === WALL.id ? world.set : undefined),
      replace,
    }),
    strictFake<FileStore>('files', {
      read: () => Readable.from([Buffer.from('png')]),
      write: (_owner, _area, name) => Promise.resolve({ name, bytes: 3, modifiedAt: new Date(0) }),
    }),
    strictFake<OwnerQueue>('jobs', {
      findLive: mapsOnly((_owner: number, _kind: 'maps', key: string) =>
        Promise.resolve(key === KEY ? world.live : undefined),
      ),
      list: () => Promise.resolve([]),
    }),
    strictFake<JobScheduler>('scheduler', { enqueue: mapsOnly(enqueue) }),
    strictFake<MaterialMapsMaker>('maker', { make }),
    silentLogger,
  );
  return { service, enqueue, replace, make };
}

const context = (): JobContext =>
  strictFake<JobContext>('context', {
    progress: () => undefined,
    signal: new AbortController().signal,
  });

describe('ordering maps with height settings', () => {
  it('queues the job with the settings ordered, and the defaults when none are', async () => {
    for (const [height, expected] of [
      [INVERTED, INVERTED],
      [undefined, DEFAULT_HEIGHT_SETTINGS],
    ] as const) {
      const { service, enqueue } = serviceIn({});
      const result = await service.order(ann, {
        kind: 'ld',
        image: 'wall.png',
        ...(height && { height }),
      });
      expect(result).toMatchObject({ ok: true, status: { job: { status: 'queued' } } });
      expect(enqueue).toHaveBeenCalledOnce();
      expect(enqueue.mock.calls[0]?.[0]).toMatchObject({
        kind: 'maps',
        dedupeKey: KEY,
        params: { owner: ann, kind: 'ld', image: 'wall.png', height: expected },
      });
    }
  });

  it('reports the live job when it reads the height alike', async () => {
    const world: World = { live: mapsJob({ height: INVERTED }, 'in_progress') };
    const { service, enqueue } = serviceIn(world);
    const result = await service.order(ann, { kind: 'ld', image: 'wall.png', height: INVERTED });
    expect(result).toMatchObject({ ok: true, status: { job: { id: 'job-3' } } });
    expect(enqueue).toHaveBeenCalledOnce();
  });

  it('refuses other settings while the image’s job is live, and queues nothing', async () => {
    // An old job, stored without settings, reads the defaults.
    for (const live of [mapsJob({}, 'queued'), mapsJob({ height: INVERTED }, 'in_progress')]) {
      const world: World = { live };
      const { service } = serviceIn(world);
      const other = live.params.height ? DEFAULT_HEIGHT_SETTINGS : INVERTED;
      expect(await service.order(ann, { kind: 'ld', image: 'wall.png', height: other })).toEqual({
        ok: false,
        status: 409,
        error: errorText('MAPS_HEIGHT_BUSY'),
      });
      expect(world.live).toBe(live);
    }
  });
});

describe('the status', () => {
  it('tells the defaults and no time before any maps, the stored settings and time after', async () => {
    const world: World = {};
    const { service } = serviceIn(world);
    const before = await service.status(ann, { kind: 'ld', image: 'wall.png' });
    expect(before).toMatchObject({ maps: [], height: DEFAULT_HEIGHT_SETTINGS });
    expect(before?.madeAt).toBeUndefined();

    world.set = {
      seamless: true,
      height: INVERTED,
      maps: [],
      madeAt: '2026-02-02T02:02:02.000Z',
    };
    expect(await service.status(ann, { kind: 'ld', image: 'wall.png' })).toMatchObject({
      height: INVERTED,
      madeAt: '2026-02-02T02:02:02.000Z',
    });
  });
});

describe('the job', () => {
  it('makes the maps as its settings say and records them with the set', async () => {
    const world: World = {};
    const { service, make, replace } = serviceIn(world);
    await service.runMaps(mapsJob({ height: INVERTED }, 'in_progress'), context());
    expect(make.mock.calls[0]?.[1]).toMatchObject({ seamless: true, height: INVERTED });
    expect(replace.mock.calls[0]?.[2]).toMatchObject({ seamless: true, height: INVERTED });
    expect(world.set?.maps.map((m) => m.map)).toEqual([...MATERIAL_MAPS]);
    expect(await service.status(ann, { kind: 'ld', image: 'wall.png' })).toMatchObject({
      height: INVERTED,
      madeAt: world.set?.madeAt,
    });
  });

  it('makes a job stored before the settings existed with the defaults', async () => {
    const { service, make, replace } = serviceIn({});
    await service.runMaps(mapsJob({}, 'in_progress'), context());
    expect(make.mock.calls[0]?.[1].height).toEqual(DEFAULT_HEIGHT_SETTINGS);
    expect(replace.mock.calls[0]?.[2].height).toEqual(DEFAULT_HEIGHT_SETTINGS);
  });
});
