import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { JobKind, NewJob } from '../jobs/job.js';
import { JobNotHeldError, QueueFullError, type JobQueue } from '../jobs/queue.js';
import { addOwner, freshDatabase, type TestDatabase } from '../testing/database.js';
import { HD_PARAMS, PREVIEW_PARAMS } from '../testing/job-params.js';
import { createJobQueue } from './jobs.js';

// The job queue on the jobs table of a real database (the integration tier: npm run test:int),
// SQLite and PostgreSQL. More on moves and pauses: jobs/queue-control.test.ts; several processes
// sharing the queue on PostgreSQL: jobs/shared-queue.test.ts.

let store: TestDatabase;
let queue: JobQueue;
let ann: number;
let bob: number;
let clock: number;

beforeEach(async () => {
  store = await freshDatabase();
  queue = createJobQueue(store.db, { lease: { holder: 'process-a', ms: LEASE_MS } });
  ann = await addOwner(store.db, 'ann');
  bob = await addOwner(store.db, 'bob');
  clock = Date.parse('2026-01-01T00:00:00.000Z');
});
afterEach(() => store.close());

const LEASE_MS = 30_000;

/** Each call a second later. */
const tick = () => new Date((clock += 1000));

function hdJob(
  ownerId: number,
  publicId: string,
  fields: Partial<NewJob<'hd'>> = {},
): NewJob<'hd'> {
  return { publicId, ownerId, kind: 'hd', params: HD_PARAMS, maxAttempts: 3, ...fields };
}

async function enqueued(job: NewJob): Promise<number> {
  const record = await queue.enqueue(job, tick());
  if (!record) throw new Error(`not queued: ${job.publicId}`);
  return record.id;
}

async function claimed(kind: JobKind = 'hd'): Promise<number> {
  const job = await queue.claim(kind, tick());
  if (!job) throw new Error('nothing to claim');
  return job.id;
}

describe('enqueue', () => {
  it('stores a queued job with its typed params, read back as they were', async () => {
    const job = await queue.enqueue(
      hdJob(ann, 'order-1', { dedupeKey: 'hd:tile.png:30x30' }),
      tick(),
    );
    expect(job).toMatchObject({
      publicId: 'order-1',
      ownerId: ann,
      kind: 'hd',
      params: HD_PARAMS,
      status: 'queued',
      percent: 0,
      attempts: 0,
      maxAttempts: 3,
      output: null,
      error: null,
      dedupeKey: 'hd:tile.png:30x30',
      remotePrompt: null,
    });
    const preview = await queue.enqueue(
      { publicId: 'p-1', ownerId: ann, kind: 'preview', params: PREVIEW_PARAMS, maxAttempts: 1 },
      tick(),
    );
    expect(preview?.params).toEqual(PREVIEW_PARAMS);
  });

  it('takes no second live job with the same dedupe key; once it is over, takes one again', async () => {
    const key = { dedupeKey: 'hd:tile.png:30x30' };
    const first = await enqueued(hdJob(ann, 'a', key));
    expect(await queue.enqueue(hdJob(ann, 'b', key), tick())).toBeUndefined();
    // Another owner's key is another key.
    expect(await queue.enqueue(hdJob(bob, 'c', key), tick())).toBeDefined();
    await claimed();
    expect(await queue.enqueue(hdJob(ann, 'd', key), tick())).toBeUndefined();
    await queue.finish(first, 'tile_30x30.png', tick());
    expect(await queue.enqueue(hdJob(ann, 'e', key), tick())).toBeDefined();
  });

  it("refuses a job past the owner's limit of live jobs, counting only that owner's", async () => {
    const limited = (ownerId: number, id: string) => hdJob(ownerId, id, { maxLivePerOwner: 2 });
    await enqueued(limited(ann, 'a'));
    const second = await enqueued(limited(ann, 'b'));
    await expect(queue.enqueue(limited(ann, 'c'), tick())).rejects.toEqual(new QueueFullError(2));
    await enqueued(limited(bob, 'x'));
    // A job that ended frees its place.
    await queue.cancel(ann, 'hd', 'b', tick());
    expect(await queue.findByPublicId(ann, 'hd', 'b')).toMatchObject({ id: second });
    await enqueued(limited(ann, 'c'));
    expect((await queue.list(ann, 'hd', 10)).map((j) => j.publicId)).toEqual(['c', 'b', 'a']);
  });

  it('answers a live duplicate rather than a full queue', async () => {
    const job = (id: string) => hdJob(ann, id, { maxLivePerOwner: 1, dedupeKey: 'k' });
    await enqueued(job('a'));
    expect(await queue.enqueue(job('b'), tick())).toBeUndefined();
  });
});

describe('claim and the end of a run', () => {
  it('claims the oldest runnable job of the kind, counting the attempt', async () => {
    await enqueued({
      publicId: 'p',
      ownerId: ann,
      kind: 'preview',
      params: PREVIEW_PARAMS,
      maxAttempts: 1,
    });
    const first = await enqueued(hdJob(ann, 'a'));
    await enqueued(hdJob(ann, 'b'));
    const job = await queue.claim('hd', tick());
    expect(job).toMatchObject({ id: first, status: 'in_progress', attempts: 1, kind: 'hd' });
    expect((await queue.claim('hd', tick()))?.publicId).toBe('b');
    expect(await queue.claim('hd', tick())).toBeUndefined();
  });

  it('records progress of a running job only', async () => {
    const id = await enqueued(hdJob(ann, 'a'));
    await queue.progress(id, 40, tick());
    expect(await queue.findByPublicId(ann, 'hd', 'a')).toMatchObject({ percent: 0 });
    await claimed();
    await queue.progress(id, 40, tick());
    expect(await queue.findByPublicId(ann, 'hd', 'a')).toMatchObject({ percent: 40 });
  });

  it('finishes with the output, at 100 %, forgetting an earlier error and the remote prompt', async () => {
    const id = await enqueued(hdJob(ann, 'a'));
    await claimed();
    await queue.retry(id, 'engine crashed', new Date(clock), tick());
    await claimed();
    await queue.rememberPrompt(id, { server: 'http://gpu:8188', promptId: 'p1', clientId: 'c1' });
    expect(await queue.findByPublicId(ann, 'hd', 'a')).toMatchObject({
      remotePrompt: { server: 'http://gpu:8188', promptId: 'p1', clientId: 'c1' },
    });
    expect(await queue.finish(id, 'tile_30x30.png', tick())).toMatchObject({
      status: 'finished',
      percent: 100,
      output: 'tile_30x30.png',
      error: null,
      attempts: 2,
      remotePrompt: null,
    });
  });

  it('retries after a failure no sooner than asked, and fails for good with the text', async () => {
    const id = await enqueued(hdJob(ann, 'a'));
    await claimed();
    const runAfter = new Date(clock + 60_000);
    expect(await queue.retry(id, 'engine crashed', runAfter, tick())).toMatchObject({
      status: 'queued',
      error: 'engine crashed',
      runAfter: runAfter.toISOString(),
    });
    expect(await queue.nextRunAfter('hd')).toBe(runAfter.toISOString());
    expect(await queue.claim('hd', tick())).toBeUndefined();
    expect(await queue.claim('hd', new Date(runAfter))).toMatchObject({ id, attempts: 2 });
    expect(await queue.fail(id, 'out of memory', tick())).toMatchObject({
      status: 'error',
      error: 'out of memory',
    });
    expect(await queue.nextRunAfter('hd')).toBeUndefined();
  });
});

describe('after a restart or a stop', () => {
  it('puts interrupted jobs back in the queue, and fails those out of attempts', async () => {
    const once = await enqueued(hdJob(ann, 'once', { maxAttempts: 1 }));
    const again = await enqueued(hdJob(ann, 'again', { maxAttempts: 3 }));
    await enqueued(hdJob(ann, 'waiting'));
    await claimed();
    await claimed();
    const back = await queue.requeueInterrupted(tick());
    expect(back.map((j) => [j.id, j.status, j.error])).toEqual([
      [once, 'error', 'Interrupted too many times'],
      [again, 'queued', null],
    ]);
    expect(await queue.findByPublicId(ann, 'hd', 'waiting')).toMatchObject({ status: 'queued' });
  });

  it('a released job goes back to the queue without its attempt counted', async () => {
    const id = await enqueued(hdJob(ann, 'a'));
    await claimed();
    await queue.release(id, tick());
    expect(await queue.findByPublicId(ann, 'hd', 'a')).toMatchObject({
      status: 'queued',
      attempts: 0,
    });
  });

  it('keeps the output name a run reserved, for a rerun; live jobs name theirs', async () => {
    const id = await enqueued(hdJob(ann, 'a'));
    const done = await enqueued(hdJob(ann, 'b'));
    await claimed();
    await queue.reserveOutput(id, 'tile_30x30.png');
    await claimed();
    await queue.reserveOutput(done, 'tile_30x30-2.png');
    await queue.finish(done, 'tile_30x30-2.png', tick());
    await queue.requeueInterrupted(tick());
    expect(await queue.findByPublicId(ann, 'hd', 'a')).toMatchObject({
      status: 'queued',
      output: 'tile_30x30.png',
    });
    expect(await queue.liveOutputs(ann)).toEqual(new Set(['tile_30x30.png']));
    expect(await queue.liveOutputs(bob)).toEqual(new Set());
  });
});

describe("the owner's view and cancelling", () => {
  it('cancels a queued job of the owner; a running one, or another owner’s, stays', async () => {
    await enqueued(hdJob(ann, 'running'));
    await enqueued(hdJob(ann, 'waiting'));
    await claimed();
    expect(await queue.cancel(ann, 'hd', 'waiting', tick())).toMatchObject({ status: 'cancelled' });
    expect(await queue.cancel(ann, 'hd', 'running', tick())).toMatchObject({
      status: 'in_progress',
    });
    expect(await queue.cancel(bob, 'hd', 'waiting', tick())).toBeUndefined();
    expect(await queue.cancel(ann, 'preview', 'running', tick())).toBeUndefined();
  });

  it('cancels the live jobs of one image by key prefix, % and _ in names taken as they are', async () => {
    const waiting = await enqueued(hdJob(ann, 'a', { dedupeKey: 'hd:a_b%.png:30x30' }));
    const running = await enqueued(hdJob(ann, 'b', { dedupeKey: 'hd:a_b%.png:60x60' }));
    await claimed();
    const lookalike = await enqueued(hdJob(ann, 'c', { dedupeKey: 'hd:aXbY.png:30x30' }));
    await enqueued(hdJob(bob, 'd', { dedupeKey: 'hd:a_b%.png:30x30' }));
    const cancelled = await queue.cancelByKeyPrefix(ann, 'hd', 'hd:a_b%.png:', tick());
    expect(cancelled.map((job) => job.id).sort()).toEqual([waiting, running].sort());
    expect(cancelled.map((job) => job.status)).toEqual(['cancelled', 'cancelled']);
    expect(await queue.findLive(ann, 'hd', 'hd:aXbY.png:30x30')).toMatchObject({ id: lookalike });
    expect(await queue.findLive(bob, 'hd', 'hd:a_b%.png:30x30')).toBeDefined();
    expect(await queue.cancelByKeyPrefix(ann, 'hd', 'hd:a_b%.png:', tick())).toEqual([]);
  });

  it("lists the owner's jobs newest first, and their latest leaves out cancelled ones", async () => {
    for (const id of ['a', 'b', 'c']) await enqueued(hdJob(ann, id));
    await enqueued(hdJob(bob, 'x'));
    expect((await queue.list(ann, 'hd', 2)).map((j) => j.publicId)).toEqual(['c', 'b']);
    expect((await queue.latest(ann, 'hd'))?.publicId).toBe('c');
    await queue.cancel(ann, 'hd', 'c', tick());
    expect((await queue.latest(ann, 'hd'))?.publicId).toBe('b');
    expect(await queue.latest(ann, 'preview')).toBeUndefined();
  });

  it('pauses and resumes an owner’s queue of one kind', async () => {
    expect(await queue.isPaused(ann, 'hd')).toBe(false);
    await queue.pause(ann, 'hd', tick());
    await queue.pause(ann, 'hd', tick());
    expect(await queue.isPaused(ann, 'hd')).toBe(true);
    expect(await queue.isPaused(ann, 'preview')).toBe(false);
    expect(await queue.isPaused(bob, 'hd')).toBe(false);
    await queue.resume(ann, 'hd');
    expect(await queue.isPaused(ann, 'hd')).toBe(false);
  });
});

describe("the claim's order", () => {
  async function claimAll(): Promise<string[]> {
    const taken: string[] = [];
    for (let job = await queue.claim('hd', tick()); job; job = await queue.claim('hd', tick()))
      taken.push(job.publicId);
    return taken;
  }

  it('owners take turns, never-served owners first; within a turn the owner’s own order', async () => {
    const cy = await addOwner(store.db, 'cy');
    for (const id of ['a1', 'a2', 'a3']) await enqueued(hdJob(ann, id));
    for (const id of ['b1', 'b2']) await enqueued(hdJob(bob, id));
    expect(await claimAll()).toEqual(['a1', 'b1', 'a2', 'b2', 'a3']);
    // Cy, never served, goes first; then Bob, served longer ago than Ann.
    for (const id of ['a4', 'a5']) await enqueued(hdJob(ann, id));
    await enqueued(hdJob(bob, 'b3'));
    await enqueued(hdJob(cy, 'c1'));
    await queue.moveToTop(ann, 'hd', 'a5', tick());
    expect(await claimAll()).toEqual(['c1', 'b3', 'a5', 'a4']);
  });

  it('passes over a paused owner and jobs waiting for their run_after', async () => {
    await enqueued(hdJob(ann, 'a1'));
    const later = await enqueued(hdJob(bob, 'b1'));
    await enqueued(hdJob(bob, 'b2'));
    await claimed();
    await claimed();
    await queue.retry(later, 'engine crashed', new Date(clock + 60_000), tick());
    await queue.pause(ann, 'hd', tick());
    await enqueued(hdJob(ann, 'a2'));
    // b1 waits for its run_after; bob's turn goes to b2 only once b1 is no candidate.
    expect(await claimAll()).toEqual(['b2']);
    await queue.resume(ann, 'hd');
    expect(await claimAll()).toEqual(['a2']);
  });
});

describe('leases', () => {
  const other = () => createJobQueue(store.db, { lease: { holder: 'process-b', ms: LEASE_MS } });

  it("holds a claimed job for its process: another process's writes change nothing", async () => {
    const id = await enqueued(hdJob(ann, 'a'));
    await claimed();
    const b = other();
    expect(await b.finish(id, 'stolen.png', tick())).toBeUndefined();
    expect(await b.fail(id, 'no', tick())).toBeUndefined();
    expect(await b.retry(id, 'no', tick(), tick())).toBeUndefined();
    await b.progress(id, 50, tick());
    await expect(b.reserveOutput(id, 'stolen.png')).rejects.toThrow(JobNotHeldError);
    await b.release(id, tick());
    expect(await b.renewLeases([id], tick())).toEqual([]);
    expect(await queue.findByPublicId(ann, 'hd', 'a')).toMatchObject({
      status: 'in_progress',
      percent: 0,
      output: null,
      attempts: 1,
    });
    expect(await queue.renewLeases([id], tick())).toEqual([id]);
    expect(await queue.finish(id, 'tile.png', tick())).toMatchObject({ status: 'finished' });
  });

  it('an expired lease puts the job back for any process, its attempt counted, or fails it', async () => {
    const once = await enqueued(hdJob(ann, 'once', { maxAttempts: 1 }));
    const again = await enqueued(hdJob(bob, 'again', { maxAttempts: 3 }));
    const claimedAt = clock + 1000;
    await claimed();
    await claimed();
    const b = other();
    // Renewed by its holder, a lease outlives its first term.
    expect(await queue.renewLeases([again], new Date(claimedAt + LEASE_MS - 1000))).toEqual([
      again,
    ]);
    const afterFirstTerm = await b.expireLeases(new Date(claimedAt + LEASE_MS + 2000));
    expect(afterFirstTerm.map((job) => [job.id, job.status, job.error])).toEqual([
      [once, 'error', 'Interrupted too many times'],
    ]);
    const afterRenewal = new Date(claimedAt + 2 * LEASE_MS);
    expect((await b.expireLeases(afterRenewal)).map((job) => [job.id, job.status])).toEqual([
      [again, 'queued'],
    ]);
    expect(await b.claim('hd', afterRenewal)).toMatchObject({ id: again, attempts: 2 });
    // The first holder lost it: its renewal says so, and its finish writes nothing.
    expect(await queue.renewLeases([again], afterRenewal)).toEqual([]);
    expect(await queue.finish(again, 'late.png', afterRenewal)).toBeUndefined();
    expect(await b.finish(again, 'tile.png', afterRenewal)).toMatchObject({
      status: 'finished',
      attempts: 2,
    });
  });
});

describe('rows the code does not know', () => {
  it('refuses to read a job of an unknown kind instead of guessing its params', async () => {
    await store.db
      .insertInto('jobs')
      .values({
        public_id: 'old',
        owner_id: ann,
        kind: 'retired-kind',
        status: 'queued',
        percent: 0,
        params: '{}',
        attempts: 0,
        max_attempts: 1,
        run_after: '2026-01-01T00:00:00.000Z',
        dedupe_key: null,
        created_at: '2026-01-01T00:00:00.000Z',
        updated_at: '2026-01-01T00:00:00.000Z',
      })
      .execute();
    await expect(queue.list(ann, 'retired-kind' as JobKind, 10)).rejects.toThrow(
      "unknown kind 'retired-kind'",
    );
  });
});
