import {
  buildHdCommand,
  hdFactorsFor,
  errorText,
  type CommandPayload,
  type HdSizeLabel,
  type HdStatusMessage,
} from '@tessera/contract';
import { describe, expect, it, vi } from 'vitest';
import type { Engine } from '../engines/engine.js';
import type { FileStore } from '../files/file-store.js';
import type { JobRecord } from '../jobs/job.js';
import { QueueFullError, type OwnerQueue } from '../jobs/queue.js';
import { PermanentJobError, type JobContext, type JobScheduler } from '../jobs/runner.js';
import type { ImageRecord, ImageRepository } from '../store/images.js';
import { silentLogger } from '../testing/fixtures.js';
import { HD_PARAMS, PREVIEW_PARAMS } from '../testing/job-params.js';
import { imageRecord, jobRecord } from '../testing/records.js';
import { strictFake } from '../testing/strict-fake.js';
import { HdService, type HdStatusPublisher } from './hd.js';
import type { Owner } from '../owner.js';

// The HD order rules on fakes of the images table, the job queue, the scheduler and the status
// stream: no broker, no database, no engine. (services/hd.test.ts runs the same pipeline whole.)

const alice: Owner = { id: 1, username: 'alice' };
const bob: Owner = { id: 2, username: 'bob' };

/** An LD image of the Square format (1024 × 1024), whose HD sizes are 30x30 … 120x120. */
function ldImage(fields: Partial<ImageRecord> = {}): ImageRecord {
  return imageRecord({ ownerId: alice.id, ...fields });
}

function imagesHolding(held: ImageRecord[]): ImageRepository {
  return strictFake<ImageRepository>('images', {
    find: (ownerId, kind, filename) =>
      Promise.resolve(
        held.find((i) => i.ownerId === ownerId && i.kind === kind && i.filename === filename),
      ),
  });
}

function command(sizeLabel: HdSizeLabel, image = 'tile.png'): CommandPayload<'generate-image'> {
  return buildHdCommand({ id: 'order-1', user: 'alice', image, metadata: {}, sizeLabel });
}

function hdJob(fields: Partial<JobRecord<'hd'>> = {}): JobRecord<'hd'> {
  return {
    ...jobRecord(
      { kind: 'hd', params: { ...HD_PARAMS, owner: alice, image: 'tile.png', size: '60x60' } },
      { id: 5, publicId: 'order-1', ownerId: alice.id, dedupeKey: 'hd:tile.png:60x60' },
    ),
    ...fields,
  };
}

/**
 * The queue's and the scheduler's methods are generic over the kind of job; a fake of one answers
 * for HD jobs only, which is all the HD service asks of them.
 */
function hdOnly<F>(fake: (...args: never[]) => unknown): F {
  return fake as unknown as F;
}

/** The status stream, writing down what each user was told. */
function statusStream(): HdStatusPublisher & { sent: [string, HdStatusMessage][] } {
  const sent: [string, HdStatusMessage][] = [];
  return { sent, publish: (username, message) => sent.push([username, message]) };
}

/** The service with only the parts a test gives; any other part fails on its first call. */
function hdService(parts: {
  images?: ImageRepository;
  files?: FileStore;
  jobs?: OwnerQueue;
  scheduler?: JobScheduler;
  status?: HdStatusPublisher;
}): HdService {
  return new HdService(
    parts.images ?? strictFake('images'),
    parts.files ?? strictFake('files'),
    parts.jobs ?? strictFake('jobs'),
    parts.scheduler ?? strictFake('scheduler'),
    parts.status ?? strictFake('status'),
    strictFake<Engine>('engine'),
    silentLogger,
  );
}

describe('HdService.order', () => {
  it("queues one job for the owner's LD image at an offered size, keyed by image and size", async () => {
    const enqueue = vi.fn(() => Promise.resolve(hdJob()));
    const service = hdService({
      images: imagesHolding([ldImage()]),
      scheduler: strictFake<JobScheduler>('scheduler', { enqueue: hdOnly(enqueue) }),
    });
    // The status stream has no methods: a job that is queued is announced by the runner, not here.
    await service.order(alice, command('60x60'));
    expect(enqueue).toHaveBeenCalledWith({
      publicId: 'order-1',
      ownerId: alice.id,
      kind: 'hd',
      dedupeKey: 'hd:tile.png:60x60',
      params: {
        owner: alice,
        image: 'tile.png',
        size: '60x60',
        factors: {
          rescale_factor_cr711: 1.74,
          scale_by_latent707: 1,
          rescale_factor_cr701: 1.5,
          scale_by_image692: 2.7,
        },
        seed: expect.any(Number) as number,
      },
    });
  });

  it("takes the size's factors from the table, however the command wrote them", async () => {
    const enqueue = vi.fn(() => Promise.resolve(hdJob()));
    const service = hdService({
      images: imagesHolding([ldImage()]),
      scheduler: strictFake<JobScheduler>('scheduler', { enqueue: hdOnly(enqueue) }),
    });
    // The contract matches factors to a size to 2 decimals: these are 60x60's.
    await service.order(alice, {
      ...command('60x60'),
      rescale_factor_cr711: '1.740',
      rescale_factor_cr701: '1.501',
      scale_by_image692: '2.70',
    });
    expect(enqueue).toHaveBeenCalledWith(
      expect.objectContaining({
        params: expect.objectContaining({
          size: '60x60',
          factors: hdFactorsFor('60x60'),
        }) as unknown,
      }),
    );
  });

  it('answers an unknown image with an error status and queues nothing', async () => {
    const status = statusStream();
    await hdService({ images: imagesHolding([]), status }).order(alice, command('60x60'));
    expect(status.sent).toEqual([
      [
        'alice',
        {
          id: 'order-1',
          image: 'tile.png',
          status: 'error',
          percent: 0,
          error: errorText('ORDERED_IMAGE_NOT_FOUND', 'tile.png'),
        },
      ],
    ]);
  });

  it("treats another user's image as unknown, telling only the one who ordered", async () => {
    const status = statusStream();
    const images = imagesHolding([ldImage({ ownerId: bob.id })]);
    await hdService({ images, status }).order(alice, command('60x60'));
    expect(status.sent).toEqual([
      [
        'alice',
        expect.objectContaining({ error: errorText('ORDERED_IMAGE_NOT_FOUND', 'tile.png') }),
      ],
    ]);
  });

  it("refuses a size of another format than the image's", async () => {
    const status = statusStream();
    await hdService({ images: imagesHolding([ldImage()]), status }).order(
      alice,
      command('30x60'), // a Rectangle size; the image is Square
    );
    expect(status.sent).toEqual([
      ['alice', expect.objectContaining({ error: errorText('HD_SIZE_NOT_OFFERED', '30x60') })],
    ]);
  });

  it('offers no size at all for an image of no known format', async () => {
    const status = statusStream();
    const images = imagesHolding([ldImage({ width: 500, height: 500 })]);
    await hdService({ images, status }).order(alice, command('30x30'));
    expect(status.sent).toEqual([
      ['alice', expect.objectContaining({ error: errorText('HD_SIZE_NOT_OFFERED', '30x30') })],
    ]);
  });

  it('refuses factors that match no size of the table', async () => {
    const status = statusStream();
    await hdService({ images: imagesHolding([ldImage()]), status }).order(alice, {
      ...command('60x60'),
      scale_by_image692: '9.99',
    });
    expect(status.sent).toEqual([
      ['alice', expect.objectContaining({ error: errorText('HD_SIZE_NOT_OFFERED', '?') })],
    ]);
  });

  it('answers an order past the queue limit with the limit text', async () => {
    const status = statusStream();
    const enqueue = () => Promise.reject(new QueueFullError(20));
    await hdService({
      images: imagesHolding([ldImage()]),
      scheduler: strictFake<JobScheduler>('scheduler', { enqueue: hdOnly(enqueue) }),
      status,
    }).order(alice, command('60x60'));
    expect(status.sent).toEqual([
      [
        'alice',
        {
          id: 'order-1',
          image: 'tile.png',
          status: 'error',
          percent: 0,
          error: errorText('HD_QUEUE_FULL', 20),
        },
      ],
    ]);
  });

  it('lets any other queue failure through rather than telling the user a wrong reason', async () => {
    const enqueue = () => Promise.reject(new Error('database is locked'));
    const service = hdService({
      images: imagesHolding([ldImage()]),
      scheduler: strictFake<JobScheduler>('scheduler', { enqueue: hdOnly(enqueue) }),
    });
    await expect(service.order(alice, command('60x60'))).rejects.toThrow('database is locked');
  });

  it('ends a second order of a running image and size under its own id, then tells the running job’s status (issue 22, part 9)', async () => {
    const status = statusStream();
    const live = hdJob({ publicId: 'first-order', status: 'in_progress', percent: 40 });
    const findLive = vi.fn(() => Promise.resolve(live));
    await hdService({
      images: imagesHolding([ldImage()]),
      scheduler: strictFake<JobScheduler>('scheduler', {
        enqueue: () => Promise.resolve(undefined),
      }),
      jobs: strictFake<OwnerQueue>('jobs', { findLive: hdOnly(findLive) }),
      status,
    }).order(alice, command('60x60'));
    expect(findLive).toHaveBeenCalledWith(alice.id, 'hd', 'hd:tile.png:60x60');
    expect(status.sent).toEqual([
      [
        'alice',
        {
          id: 'order-1',
          image: 'tile.png',
          status: 'error',
          percent: 0,
          error: errorText('HD_ALREADY_ORDERED', 'tile.png', '60x60'),
          reason: 'already-ordered',
        },
      ],
      ['alice', { id: 'first-order', image: 'tile.png', status: 'in_progress', percent: 40 }],
    ]);
  });
});

describe('HdService.announce', () => {
  const told = (job: JobRecord) => {
    const status = statusStream();
    hdService({ status }).announce(job);
    return status.sent;
  };
  const base = { id: 'order-1', image: 'tile.png' };

  it('tells a queued job as queued', () => {
    expect(told(hdJob())).toEqual([['alice', { ...base, status: 'queued', percent: 0 }]]);
  });

  it('tells a failed attempt that comes back queued as queued only, not as an error (issue 22, part 9)', () => {
    expect(told(hdJob({ attempts: 1, error: 'engine crashed' }))).toEqual([
      ['alice', { ...base, status: 'queued', percent: 0 }],
    ]);
  });

  it('tells progress, and the output when finished', () => {
    expect(told(hdJob({ status: 'in_progress', percent: 55 }))).toEqual([
      ['alice', { ...base, status: 'in_progress', percent: 55 }],
    ]);
    expect(told(hdJob({ status: 'finished', percent: 100, output: 'tile_60x60.png' }))).toEqual([
      ['alice', { ...base, status: 'finished', percent: 100, output_image: 'tile_60x60.png' }],
    ]);
  });

  it('tells a final failure with its text, or a general one when it has none', () => {
    expect(told(hdJob({ status: 'error', percent: 30, error: 'out of memory' }))).toEqual([
      ['alice', { ...base, status: 'error', percent: 30, error: 'out of memory' }],
    ]);
    expect(told(hdJob({ status: 'error', percent: 30 }))).toEqual([
      ['alice', { ...base, status: 'error', percent: 30, error: 'HD generation failed' }],
    ]);
  });

  it('tells nothing of a cancelled job, nor of a job of another kind', () => {
    expect(told(hdJob({ status: 'cancelled' }))).toEqual([]);
    const preview: JobRecord = { ...hdJob(), kind: 'preview', params: PREVIEW_PARAMS };
    expect(told(preview)).toEqual([]);
  });
});

describe('HdService.cancelForImage (an LD image being deleted)', () => {
  it("cancels the owner's HD jobs of that image, all sizes, and stops those running here", async () => {
    const cancelByKeyPrefix = vi.fn(() =>
      Promise.resolve([
        hdJob({ id: 5, publicId: 'a', status: 'cancelled' }),
        hdJob({ id: 6, publicId: 'b', status: 'cancelled', percent: 30 }),
      ]),
    );
    const abortCancelled = vi.fn();
    const status = statusStream();
    await hdService({
      jobs: strictFake<OwnerQueue>('jobs', { cancelByKeyPrefix }),
      scheduler: strictFake<JobScheduler>('scheduler', { abortCancelled }),
      status,
    }).cancelForImage(alice, 'tile.png');
    expect(cancelByKeyPrefix).toHaveBeenCalledWith(
      alice.id,
      'hd',
      'hd:tile.png:',
      expect.any(Date),
    );
    expect(abortCancelled).toHaveBeenCalledWith([5, 6]);
    // Each id ends on the status stream (issue 22, part 9).
    const ended = { image: 'tile.png', status: 'error', error: errorText('HD_JOB_CANCELLED') };
    expect(status.sent).toEqual([
      ['alice', { id: 'a', percent: 0, ...ended, reason: 'cancelled' }],
      ['alice', { id: 'b', percent: 30, ...ended, reason: 'cancelled' }],
    ]);
  });
});

describe('HdService.cancel (the queue page)', () => {
  it('ends the cancelled id on the status stream (issue 22, part 9)', async () => {
    const status = statusStream();
    const result = await hdService({
      jobs: strictFake<OwnerQueue>('jobs', {
        cancel: hdOnly(() => Promise.resolve(hdJob({ status: 'cancelled' }))),
      }),
      status,
    }).cancel(alice, 'order-1');
    expect(result).toBe('cancelled');
    expect(status.sent).toEqual([
      [
        'alice',
        {
          id: 'order-1',
          image: 'tile.png',
          status: 'error',
          percent: 0,
          error: errorText('HD_JOB_CANCELLED'),
          reason: 'cancelled',
        },
      ],
    ]);
  });

  it('tells nothing when the job had started already', async () => {
    const status = statusStream();
    const result = await hdService({
      jobs: strictFake<OwnerQueue>('jobs', {
        cancel: hdOnly(() => Promise.resolve(hdJob({ status: 'in_progress' }))),
      }),
      status,
    }).cancel(alice, 'order-1');
    expect(result).toBe('not-queued');
    expect(status.sent).toEqual([]);
  });
});

describe('HdService.runHd', () => {
  const context = (): JobContext => ({
    progress: () => undefined,
    signal: new AbortController().signal,
    reserveOutput: () => Promise.reject(new Error('unexpected call: reserveOutput')),
    remote: { queued: () => Promise.resolve() },
  });

  it('fails for good, before any work, when the LD image is gone', async () => {
    const service = hdService({ images: imagesHolding([]) });
    const run = service.runHd(hdJob({ status: 'in_progress' }), context());
    await expect(run).rejects.toThrow(PermanentJobError);
    await expect(run).rejects.toThrow(errorText('IMAGE_GONE', 'tile.png'));
  });

  it('a rerun of a job whose HD image is already recorded answers it, doing nothing again', async () => {
    const recorded = ldImage({ id: 8, kind: 'hd', filename: 'tile_60x60.png' });
    const service = hdService({ images: imagesHolding([ldImage(), recorded]) });
    // The engine and the file store are strict fakes: an upscale or a write would fail here.
    await expect(
      service.runHd(hdJob({ status: 'in_progress', output: 'tile_60x60.png' }), context()),
    ).resolves.toBe('tile_60x60.png');
  });
});

describe("the owner's HD queue", () => {
  it('lists the jobs with the queued ones numbered in the order they will run', async () => {
    const jobs = [
      hdJob({ id: 4, publicId: 'd', status: 'queued', queueOrder: 0 }),
      hdJob({ id: 3, publicId: 'c', status: 'queued', queueOrder: -1 }),
      hdJob({ id: 2, publicId: 'b', status: 'in_progress', percent: 20 }),
      hdJob({ id: 1, publicId: 'a', status: 'finished', output: 'tile_60x60.png', error: 'x' }),
    ];
    const list = vi.fn(() => Promise.resolve(jobs));
    const isPaused = vi.fn(() => Promise.resolve(true));
    const view = await hdService({
      jobs: strictFake<OwnerQueue>('jobs', { list: hdOnly(list), isPaused }),
    }).list(alice);
    expect(list).toHaveBeenCalledWith(alice.id, 'hd', 200);
    expect(isPaused).toHaveBeenCalledWith(alice.id, 'hd');
    expect(view.paused).toBe(true);
    expect(view.jobs.map((j) => [j.id, j.status, j.position])).toEqual([
      ['d', 'queued', 2],
      ['c', 'queued', 1],
      ['b', 'in_progress', undefined],
      ['a', 'finished', undefined],
    ]);
    // A finished job shows its output and no stale error.
    expect(view.jobs[3]).toMatchObject({ output_image: 'tile_60x60.png' });
    expect(view.jobs[3]).not.toHaveProperty('error');
  });

  it('cancels only a queued job of the owner', async () => {
    const answers: (JobRecord<'hd'> | undefined)[] = [
      hdJob({ status: 'cancelled' }),
      hdJob({ status: 'in_progress' }),
      undefined,
    ];
    const cancel = vi.fn(() => Promise.resolve(answers.shift()));
    const service = hdService({
      jobs: strictFake<OwnerQueue>('jobs', { cancel: hdOnly(cancel) }),
      status: statusStream(),
    });
    expect(await service.cancel(alice, 'order-1')).toBe('cancelled');
    expect(await service.cancel(alice, 'order-1')).toBe('not-queued');
    expect(await service.cancel(alice, 'someone-elses')).toBe('unknown');
    expect(cancel).toHaveBeenCalledWith(alice.id, 'hd', 'order-1', expect.any(Date));
  });

  it('moves only a queued job of the owner to the top', async () => {
    const answers: (JobRecord<'hd'> | undefined)[] = [
      hdJob(),
      hdJob({ status: 'finished' }),
      undefined,
    ];
    const moveToTop = vi.fn(() => Promise.resolve(answers.shift()));
    const service = hdService({
      jobs: strictFake<OwnerQueue>('jobs', { moveToTop: hdOnly(moveToTop) }),
    });
    expect(await service.moveToTop(alice, 'order-1')).toBe('moved');
    expect(await service.moveToTop(alice, 'order-1')).toBe('not-queued');
    expect(await service.moveToTop(alice, 'someone-elses')).toBe('unknown');
    expect(moveToTop).toHaveBeenCalledWith(alice.id, 'hd', 'order-1', expect.any(Date));
  });

  it('pauses the owner’s queue, and on resume wakes the runner to start one now', async () => {
    const pause = vi.fn(() => Promise.resolve());
    const resume = vi.fn(() => Promise.resolve());
    const wake = vi.fn();
    const service = hdService({
      jobs: strictFake<OwnerQueue>('jobs', { pause, resume }),
      scheduler: strictFake<JobScheduler>('scheduler', { wake }),
    });
    await service.pause(alice);
    expect(pause).toHaveBeenCalledWith(alice.id, 'hd', expect.any(Date));
    expect(wake).not.toHaveBeenCalled();
    await service.resume(alice);
    expect(resume).toHaveBeenCalledWith(alice.id, 'hd');
    expect(wake).toHaveBeenCalledWith('hd');
  });
});
