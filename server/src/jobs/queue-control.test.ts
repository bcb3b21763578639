import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { JobRecord } from './job.js';
import { createJobQueue, type StoredJobQueue } from '../store/jobs.js';
import { HD_PARAMS } from '../testing/job-params.js';
import { createTestStore, silentLogger, type TestStore } from '../testing/fixtures.js';
import { JobRunner } from './runner.js';

/**
 * The owner's control of their queue (issue 13, feature 13) on a real SQLite file: the claim
 * honours each owner's own order and passes over a paused owner, while owners still take turns.
 */

let store: TestStore;
let repo: StoredJobQueue;
let ann: number;
let ben: number;
let clock: number;

beforeEach(async () => {
  store = await createTestStore(['ann', 'ben']);
  repo = createJobQueue(store.db);
  const ids = await store.db.selectFrom('users').select(['id', 'username']).execute();
  ann = ids.find((u) => u.username === 'ann')?.id ?? 0;
  ben = ids.find((u) => u.username === 'ben')?.id ?? 0;
  clock = Date.parse('2025-01-01T00:00:00Z');
});
afterEach(async () => {
  await store.close();
});

/** Each call a second later: claims are stamped, and the turns between owners follow them. */
const tick = () => new Date((clock += 1000));

async function queue(ownerId: number, ...publicIds: string[]): Promise<void> {
  for (const publicId of publicIds) {
    await repo.enqueue(
      { publicId, ownerId, kind: 'hd', params: HD_PARAMS, maxAttempts: 3 },
      tick(),
    );
  }
}

/** Claims until nothing is runnable; the public ids in the order they were taken. */
async function claimAll(): Promise<string[]> {
  const taken: string[] = [];
  for (let job = await repo.claim('hd', tick()); job; job = await repo.claim('hd', tick())) {
    taken.push(job.publicId);
  }
  return taken;
}

const statusOf = async (ownerId: number, publicId: string) =>
  (await repo.findByPublicId(ownerId, 'hd', publicId))?.status;

describe('moving a job to the top of its owner’s queue', () => {
  it('makes the claim take that job first, then the rest in arrival order', async () => {
    await queue(ann, 'a1', 'a2', 'a3', 'a4');
    expect((await repo.moveToTop(ann, 'hd', 'a3', tick()))?.status).toBe('queued');
    expect(await claimAll()).toEqual(['a3', 'a1', 'a2', 'a4']);
  });

  it('the latest move wins, and a move after some ran still comes next', async () => {
    await queue(ann, 'a1', 'a2', 'a3', 'a4');
    await repo.moveToTop(ann, 'hd', 'a3', tick());
    await repo.moveToTop(ann, 'hd', 'a4', tick());
    expect((await repo.claim('hd', tick()))?.publicId).toBe('a4');
    await repo.moveToTop(ann, 'hd', 'a2', tick());
    expect(await claimAll()).toEqual(['a2', 'a3', 'a1']);
  });

  it('keeps the turns between owners: it reorders only within its owner’s turns', async () => {
    await queue(ann, 'a1', 'a2', 'a3');
    await queue(ben, 'b1', 'b2');
    await repo.moveToTop(ann, 'hd', 'a3', tick());
    expect(await claimAll()).toEqual(['a3', 'b1', 'a1', 'b2', 'a2']);
  });

  it('leaves a job that is not queued, and another owner’s job, as they are', async () => {
    await queue(ann, 'a1', 'a2');
    await queue(ben, 'b1', 'b2');
    const running = await repo.claim('hd', tick());
    expect(running?.publicId).toBe('a1');

    const notQueued = await repo.moveToTop(ann, 'hd', 'a1', tick());
    expect(notQueued).toMatchObject({ publicId: 'a1', status: 'in_progress' });
    // Ben names Ann's job: unknown to him, and nothing of Ann's moves.
    const before = await repo.findByPublicId(ann, 'hd', 'a2');
    expect(await repo.moveToTop(ben, 'hd', 'a2', tick())).toBeUndefined();
    expect(await repo.findByPublicId(ann, 'hd', 'a2')).toEqual(before);
    expect(await repo.moveToTop(ann, 'hd', 'no-such-job', tick())).toBeUndefined();
    expect(await claimAll()).toEqual(['b1', 'a2', 'b2']);
  });
});

describe('pausing an owner’s queue', () => {
  it('passes over the paused owner’s jobs while another owner’s run, until resumed', async () => {
    await queue(ann, 'a1', 'a2');
    await queue(ben, 'b1');
    await repo.pause(ann, 'hd', tick());
    expect(await repo.isPaused(ann, 'hd')).toBe(true);
    expect(await repo.isPaused(ben, 'hd')).toBe(false);

    expect(await claimAll()).toEqual(['b1']);
    expect(await statusOf(ann, 'a1')).toBe('queued');
    expect(await statusOf(ann, 'a2')).toBe('queued');

    // Pausing twice is still one pause; resuming lets them run, in order.
    await repo.pause(ann, 'hd', tick());
    await repo.resume(ann, 'hd');
    expect(await repo.isPaused(ann, 'hd')).toBe(false);
    expect(await claimAll()).toEqual(['a1', 'a2']);
  });

  it('does not stop a running job: it finishes, and the next waits', async () => {
    await queue(ann, 'a1', 'a2');
    const running = (await repo.claim('hd', tick())) as JobRecord;
    await repo.pause(ann, 'hd', tick());
    await repo.progress(running.id, 50, tick());
    expect(await repo.finish(running.id, 'a1.png', tick())).toMatchObject({ status: 'finished' });
    expect(await claimAll()).toEqual([]);
    // A job still may be reordered while paused; resuming honours it.
    await queue(ann, 'a3');
    await repo.moveToTop(ann, 'hd', 'a3', tick());
    await repo.resume(ann, 'hd');
    expect(await claimAll()).toEqual(['a3', 'a2']);
  });

  it('with the runner: nothing starts while paused; a resume starts the jobs at once, in order', async () => {
    const order: string[] = [];
    const runner = new JobRunner(
      repo,
      {
        preview: { concurrency: 1, maxAttempts: 1, retryDelayMs: () => 10 },
        hd: {
          concurrency: 1,
          maxAttempts: 1,
          retryDelayMs: () => 10,
        },
        maps: { concurrency: 1, maxAttempts: 1, retryDelayMs: () => 10 },
        print: { concurrency: 1, maxAttempts: 1, retryDelayMs: () => 10 },
      },
      silentLogger,
      undefined,
      // No poll within the test: only a wake makes the runner look.
      { pollMs: 3_600_000 },
    );
    const finished = new Promise<void>((resolve) =>
      runner.onChange((job) => job.status === 'finished' && order.length === 5 && resolve()),
    );
    try {
      await repo.pause(ann, 'hd', new Date());
      await runner.start({
        preview: () => Promise.reject(new Error('no previews here')),
        maps: () => Promise.reject(new Error('no maps here')),
        print: () => Promise.reject(new Error('no print files here')),
        hd: async (job) => {
          order.push(job.publicId);
          return `${job.publicId}.png`;
        },
      });
      for (const publicId of ['a1', 'a2', 'a3'])
        await runner.enqueue({ publicId, ownerId: ann, kind: 'hd', params: HD_PARAMS });
      await repo.moveToTop(ann, 'hd', 'a3', new Date());
      // Each enqueue woke the runner: it looked, and passed the paused jobs over. Ben's two jobs,
      // sent after them, run: once he has been served Ann's turn comes first, so his second job
      // is claimed only because hers cannot be.
      const bensDone = new Promise<void>((resolve) =>
        runner.onChange((job) => job.publicId === 'b2' && job.status === 'finished' && resolve()),
      );
      for (const publicId of ['b1', 'b2'])
        await runner.enqueue({ publicId, ownerId: ben, kind: 'hd', params: HD_PARAMS });
      await bensDone;
      expect(order).toEqual(['b1', 'b2']);

      // The resume wakes it through the queue, and it takes them: there is no poll to wait for.
      await repo.resume(ann, 'hd');
      await finished;
      expect(order).toEqual(['b1', 'b2', 'a3', 'a1', 'a2']);
    } finally {
      await runner.stop();
    }
  });
});
