import { USAGE_DAYS, USAGE_JOB_KINDS, USAGE_TOP_USERS, adminUsageSchema } from '@tessera/contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EngineHealth, EngineServerHealth } from '../engines/engine.js';
import { createDailyImagesRepository } from '../store/daily-images.js';
import { createImageRepository, type ImageRepository } from '../store/images.js';
import { createJobCountsRepository } from '../store/job-counts.js';
import { createJobQueue } from '../store/jobs.js';
import { addOwner, freshDatabase, type TestDatabase } from '../testing/database.js';
import { HD_PARAMS } from '../testing/job-params.js';
import { UsageService } from './usage.js';

// Usage at a glance (issue 29, part 6) on a real database, SQLite and PostgreSQL (npm run
// test:int): images bucketed by UTC day at the day's edges, with a fixed "now".

const NOW = new Date('2026-03-31T10:00:00.000Z');

let store: TestDatabase;
let images: ImageRepository;
let owners: Record<string, number>;
let made = 0;

beforeEach(async () => {
  store = await freshDatabase();
  images = createImageRepository(store.db);
  owners = {};
  for (const name of ['ann', 'bob', 'cy', 'dee', 'eve', 'fay', 'gus'])
    owners[name] = await addOwner(store.db, name);
});
afterEach(() => store.close());

function idOf(owner: string): number {
  const id = owners[owner];
  if (id === undefined) throw new Error(`no owner ${owner}`);
  return id;
}

async function image(owner: string, kind: 'ld' | 'hd', createdAt: string) {
  return images.insert({
    ownerId: idOf(owner),
    kind,
    filename: `image-${(made += 1)}.png`,
    sourceImageId: null,
    width: 64,
    height: 64,
    bytes: 100,
    metadata: {},
    createdAt,
  });
}

function usageAt(now: Date, engineHealth?: () => Promise<EngineHealth>) {
  return new UsageService({
    images: createDailyImagesRepository(store.db),
    jobs: createJobCountsRepository(store.db),
    now: () => now,
    ...(engineHealth && { engineHealth }),
  });
}

/** A ComfyUI server as the pool reports it (only the fields the charts read matter). */
const server = (url: string, state: EngineServerHealth['state']): EngineServerHealth => ({
  url,
  state,
  missing: [],
  version: null,
  queueRemaining: null,
  activeJobs: 0,
  lastError: null,
  lastErrorAt: null,
  lastCheckedAt: null,
  nextCheckAt: null,
});

const dayOf = (usage: Awaited<ReturnType<UsageService['glance']>>, day: string) =>
  usage.days.find((d) => d.day === day);

describe('images made per day', () => {
  it('counts each image on its UTC day, the 30 days ending today, empty days included', async () => {
    await image('ann', 'ld', '2026-03-01T23:59:59.999Z'); // the day before the range
    await image('ann', 'ld', '2026-03-02T00:00:00.000Z'); // the range's first moment
    await image('ann', 'hd', '2026-03-02T12:00:00.000Z');
    await image('bob', 'ld', '2026-03-15T23:59:59.999Z');
    await image('bob', 'ld', '2026-03-16T00:00:00.000Z');
    await image('bob', 'hd', '2026-03-31T23:59:59.999Z'); // today's last moment
    await image('bob', 'ld', '2026-04-01T00:00:00.000Z'); // tomorrow (a clock behind)

    const usage = adminUsageSchema.parse(await usageAt(NOW).glance());
    expect(usage.days).toHaveLength(USAGE_DAYS);
    expect(usage.days[0]?.day).toBe('2026-03-02');
    expect(usage.days.at(-1)?.day).toBe('2026-03-31');
    const counts = usage.days
      .filter((d) => d.ldImages + d.hdImages > 0)
      .map((d) => [d.day, d.ldImages, d.hdImages]);
    expect(counts).toEqual([
      ['2026-03-02', 1, 1],
      ['2026-03-15', 1, 0],
      ['2026-03-16', 1, 0],
      ['2026-03-31', 0, 1],
    ]);
    expect(dayOf(usage, '2026-03-10')).toEqual({
      day: '2026-03-10',
      ldImages: 0,
      hdImages: 0,
      byUser: [0, 0],
      others: 0,
    });
  });

  it('counts HD images the retention policy removed: they were made', async () => {
    const hd = await image('ann', 'hd', '2026-03-20T08:00:00.000Z');
    await store.db
      .updateTable('images')
      .set({ hd_removed_at: '2026-03-30T00:00:00.000Z', hd_removal: 'done' })
      .where('id', '=', hd.id)
      .execute();
    const usage = await usageAt(NOW).glance();
    expect(dayOf(usage, '2026-03-20')).toMatchObject({ ldImages: 0, hdImages: 1 });
  });

  it('stacks each day by its top users, most images first, and everyone else as others', async () => {
    // gus 7, fay 6, eve 5, dee 4, cy 3, bob 2, ann 1 over the range: ann and bob are "others".
    const names = ['ann', 'bob', 'cy', 'dee', 'eve', 'fay', 'gus'];
    for (const [i, name] of names.entries())
      for (let n = 0; n <= i; n += 1)
        await image(name, n % 2 ? 'hd' : 'ld', '2026-03-30T12:00:00Z');
    await image('ann', 'ld', '2026-03-31T01:00:00.000Z');

    const usage = await usageAt(NOW).glance();
    expect(usage.topUsers).toEqual(['gus', 'fay', 'eve', 'dee', 'cy']);
    expect(usage.topUsers).toHaveLength(USAGE_TOP_USERS);
    expect(dayOf(usage, '2026-03-30')).toMatchObject({
      ldImages: 16,
      hdImages: 12,
      byUser: [7, 6, 5, 4, 3],
      others: 3,
    });
    expect(dayOf(usage, '2026-03-31')).toMatchObject({ byUser: [0, 0, 0, 0, 0], others: 1 });
  });

  it('moves the range with the clock: tomorrow, the oldest day is gone', async () => {
    await image('ann', 'ld', '2026-03-02T09:00:00.000Z');
    const tomorrow = await usageAt(new Date('2026-04-01T00:00:00.000Z')).glance();
    expect(tomorrow.days[0]?.day).toBe('2026-03-03');
    expect(tomorrow.days.every((d) => d.ldImages === 0)).toBe(true);
    expect(tomorrow.topUsers).toEqual([]);
  });
});

describe('the queue now and the engines', () => {
  it('counts queued and running jobs of every kind, finished ones not', async () => {
    const queue = createJobQueue(store.db, { lease: { holder: 'test', ms: 30_000 } });
    let clock = NOW.getTime();
    const tick = () => new Date((clock += 1000));
    for (const publicId of ['a', 'b', 'c'])
      await queue.enqueue(
        { publicId, ownerId: idOf('ann'), kind: 'hd', params: HD_PARAMS, maxAttempts: 3 },
        tick(),
      );
    await queue.claim('hd', tick());

    const usage = await usageAt(NOW).glance();
    expect(usage.queue.map((q) => q.kind)).toEqual([...USAGE_JOB_KINDS]);
    expect(usage.queue.find((q) => q.kind === 'hd')).toEqual({ kind: 'hd', queued: 2, running: 1 });
    expect(usage.queue.find((q) => q.kind === 'preview')).toEqual({
      kind: 'preview',
      queued: 0,
      running: 0,
    });
    // No ComfyUI servers: the builtin engine, up while the server answers.
    expect(usage.engines).toEqual([{ engine: 'builtin', label: null, state: 'up' }]);
  });

  it('names each ComfyUI server by its host:port alone, with its state', async () => {
    const health = (): Promise<EngineHealth> =>
      Promise.resolve({
        ok: true,
        servers: [
          server('http://gpu-1:8188', 'up'),
          server('https://gpu-2.studio.lan:8443/comfy', 'incomplete'),
          server('http://10.0.0.9:8188', 'failing'),
        ],
      });
    const usage = adminUsageSchema.parse(await usageAt(NOW, health).glance());
    expect(usage.engines).toEqual([
      { engine: 'comfyui', label: 'gpu-1:8188', state: 'up' },
      { engine: 'comfyui', label: 'gpu-2.studio.lan:8443', state: 'incomplete' },
      { engine: 'comfyui', label: '10.0.0.9:8188', state: 'failing' },
    ]);
  });
});
