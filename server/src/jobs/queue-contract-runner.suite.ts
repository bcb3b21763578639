import { describe, expect, it } from 'vitest';
import { HD_PARAMS, PREVIEW_PARAMS } from '../testing/job-params.js';
import type { JobKind } from './job.js';
import { JobNotHeldError, QueueFullError } from './queue.js';
import { LEASE_MS, type QueueWorld } from './queue-contract-world.suite.js';

/** The runner's protocol (JobQueue): enqueue, claim, a run's writes and its end, and leases. */
export function describeRunnerProtocol(world: () => QueueWorld): void {
  describe('enqueue', () => {
    it('stores a queued job with its typed params, read back as they were', async () => {
      const w = world();
      const job = await w.jobs.enqueue(
        w.hdJob(w.ann, 'order-1', { dedupeKey: 'hd:tile.png:30x30' }),
        w.tick(),
      );
      expect(job).toMatchObject({
        publicId: 'order-1',
        ownerId: w.ann,
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
      expect(job).not.toHaveProperty('notice');
      const preview = await w.jobs.enqueue(w.previewJob(w.ann, 'p-1'), w.tick());
      expect(preview?.params).toEqual(PREVIEW_PARAMS);
    });

    it('takes no second live job with the same dedupe key; once it is over, takes one again', async () => {
      const w = world();
      const key = { dedupeKey: 'hd:tile.png:30x30' };
      const first = await w.enqueued(w.hdJob(w.ann, 'a', key));
      expect(await w.jobs.enqueue(w.hdJob(w.ann, 'b', key), w.tick())).toBeUndefined();
      // Another owner's key is another key.
      expect(await w.jobs.enqueue(w.hdJob(w.bob, 'c', key), w.tick())).toBeDefined();
      await w.claimed();
      expect(await w.jobs.enqueue(w.hdJob(w.ann, 'd', key), w.tick())).toBeUndefined();
      await w.jobs.finish(first, 'tile_30x30.png', w.tick());
      expect(await w.jobs.enqueue(w.hdJob(w.ann, 'e', key), w.tick())).toBeDefined();
    });

    it("refuses a job past the owner's limit of live jobs, counting only that owner's", async () => {
      const w = world();
      const limited = (ownerId: number, id: string) => w.hdJob(ownerId, id, { maxLivePerOwner: 2 });
      await w.enqueued(limited(w.ann, 'a'));
      const second = await w.enqueued(limited(w.ann, 'b'));
      await expect(w.jobs.enqueue(limited(w.ann, 'c'), w.tick())).rejects.toEqual(
        new QueueFullError(2),
      );
      await w.enqueued(limited(w.bob, 'x'));
      // A job that ended frees its place.
      await w.owner.cancel(w.ann, 'hd', 'b', w.tick());
      expect(await w.anns('b')).toMatchObject({ id: second });
      await w.enqueued(limited(w.ann, 'c'));
      expect((await w.owner.list(w.ann, 'hd', 10)).map((j) => j.publicId)).toEqual(['c', 'b', 'a']);
    });

    it('lets no more than the limit in when an owner queues many at the same moment', async () => {
      const w = world();
      const now = w.tick();
      const tries = ['a', 'b', 'c', 'd', 'e'].map((id) =>
        w.jobs.enqueue(w.hdJob(w.ann, id, { maxLivePerOwner: 2 }), now),
      );
      const outcomes = await Promise.allSettled(tries);
      expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(2);
      for (const refused of outcomes.filter((o) => o.status === 'rejected'))
        expect(refused.reason).toBeInstanceOf(QueueFullError);
      expect(await w.owner.list(w.ann, 'hd', 10)).toHaveLength(2);
    });

    it('answers a live duplicate rather than a full queue', async () => {
      const w = world();
      const job = (id: string) => w.hdJob(w.ann, id, { maxLivePerOwner: 1, dedupeKey: 'k' });
      await w.enqueued(job('a'));
      expect(await w.jobs.enqueue(job('b'), w.tick())).toBeUndefined();
    });
  });

  describe('claim and the end of a run', () => {
    it('claims the oldest runnable job of the kind, counting the attempt', async () => {
      const w = world();
      await w.enqueued(w.previewJob(w.ann, 'p'));
      const first = await w.enqueued(w.hdJob(w.ann, 'a'));
      await w.enqueued(w.hdJob(w.ann, 'b'));
      const job = await w.jobs.claim('hd', w.tick());
      expect(job).toMatchObject({ id: first, status: 'in_progress', attempts: 1, kind: 'hd' });
      expect((await w.jobs.claim('hd', w.tick()))?.publicId).toBe('b');
      expect(await w.jobs.claim('hd', w.tick())).toBeUndefined();
      expect((await w.jobs.claim('preview', w.tick()))?.publicId).toBe('p');
    });

    it('records progress of a running job only', async () => {
      const w = world();
      const id = await w.enqueued(w.hdJob(w.ann, 'a'));
      await w.jobs.progress(id, 40, w.tick());
      expect(await w.anns('a')).toMatchObject({ percent: 0 });
      await w.claimed();
      await w.jobs.progress(id, 40, w.tick());
      expect(await w.anns('a')).toMatchObject({ percent: 40 });
    });

    it('finishes with the output, at 100 %, forgetting an earlier error and the remote prompt', async () => {
      const w = world();
      const id = await w.enqueued(w.hdJob(w.ann, 'a'));
      await w.claimed();
      await w.jobs.retry(id, 'engine crashed', w.at(w.clock), w.tick());
      await w.claimed();
      const prompt = { server: 'http://gpu:8188', promptId: 'p1', clientId: 'c1' };
      await w.jobs.rememberPrompt(id, prompt);
      expect(await w.anns('a')).toMatchObject({ remotePrompt: prompt });
      expect(await w.jobs.finish(id, 'tile_30x30.png', w.tick())).toMatchObject({
        status: 'finished',
        percent: 100,
        output: 'tile_30x30.png',
        error: null,
        attempts: 2,
        remotePrompt: null,
      });
    });

    it('retries after a failure no sooner than asked, and fails for good with the text', async () => {
      const w = world();
      const id = await w.enqueued(w.hdJob(w.ann, 'a'));
      await w.claimed();
      const prompt = { server: 'http://gpu:8188', promptId: 'p1', clientId: 'c1' };
      await w.jobs.rememberPrompt(id, prompt);
      const runAfter = w.at(w.clock + 60_000);
      expect(await w.jobs.retry(id, 'engine crashed', runAfter, w.tick())).toMatchObject({
        status: 'queued',
        error: 'engine crashed',
        runAfter: runAfter.toISOString(),
        // The failed attempt's prompt is over: the retry queues its own.
        remotePrompt: null,
      });
      expect(await w.jobs.nextRunAfter('hd')).toBe(runAfter.toISOString());
      expect(await w.jobs.claim('hd', w.tick())).toBeUndefined();
      expect(await w.jobs.claim('hd', runAfter)).toMatchObject({ id, attempts: 2 });
      expect(await w.jobs.fail(id, 'out of memory', w.tick())).toMatchObject({
        status: 'error',
        error: 'out of memory',
      });
      expect(await w.jobs.nextRunAfter('hd')).toBeUndefined();
    });
  });

  describe('after a restart or a stop', () => {
    it('puts interrupted jobs back in the queue, and fails those out of attempts', async () => {
      const w = world();
      const once = await w.enqueued(w.hdJob(w.ann, 'once', { maxAttempts: 1 }));
      const again = await w.enqueued(w.hdJob(w.ann, 'again', { maxAttempts: 3 }));
      await w.enqueued(w.hdJob(w.ann, 'waiting'));
      await w.claimed();
      await w.claimed();
      const back = await w.jobs.requeueInterrupted(w.tick());
      expect(back.map((j) => [j.id, j.status, j.error])).toEqual([
        [once, 'error', 'Interrupted too many times'],
        [again, 'queued', null],
      ]);
      expect(await w.anns('waiting')).toMatchObject({ status: 'queued' });
    });

    it('a released job goes back to the queue without its attempt counted', async () => {
      const w = world();
      const id = await w.enqueued(w.hdJob(w.ann, 'a'));
      await w.claimed();
      await w.jobs.release(id, w.tick());
      expect(await w.anns('a')).toMatchObject({ status: 'queued', attempts: 0 });
    });

    it('keeps the output name a run reserved, for a rerun; live jobs name theirs', async () => {
      const w = world();
      const id = await w.enqueued(w.hdJob(w.ann, 'a'));
      const done = await w.enqueued(w.hdJob(w.ann, 'b'));
      await w.claimed();
      await w.jobs.reserveOutput(id, 'tile_30x30.png');
      await w.claimed();
      await w.jobs.reserveOutput(done, 'tile_30x30-2.png');
      await w.jobs.finish(done, 'tile_30x30-2.png', w.tick());
      await w.jobs.requeueInterrupted(w.tick());
      expect(await w.anns('a')).toMatchObject({ status: 'queued', output: 'tile_30x30.png' });
      expect(await w.owner.liveOutputs(w.ann)).toEqual(new Set(['tile_30x30.png']));
      expect(await w.owner.liveOutputs(w.bob)).toEqual(new Set());
    });
  });

  describe('leases', () => {
    it("holds a claimed job for its process: another process's writes change nothing", async () => {
      const w = world();
      const id = await w.enqueued(w.hdJob(w.ann, 'a'));
      await w.claimed();
      const b = w.other().jobs;
      expect(await b.finish(id, 'stolen.png', w.tick())).toBeUndefined();
      expect(await b.fail(id, 'no', w.tick())).toBeUndefined();
      expect(await b.retry(id, 'no', w.tick(), w.tick())).toBeUndefined();
      await b.progress(id, 50, w.tick());
      await expect(b.reserveOutput(id, 'stolen.png')).rejects.toThrow(JobNotHeldError);
      await b.rememberPrompt(id, { server: 'http://gpu:8188', promptId: 'x', clientId: 'y' });
      await b.release(id, w.tick());
      expect(await b.renewLeases([id], w.tick())).toEqual([]);
      expect(await w.anns('a')).toMatchObject({
        status: 'in_progress',
        percent: 0,
        output: null,
        attempts: 1,
        remotePrompt: null,
      });
      expect(await w.jobs.renewLeases([id], w.tick())).toEqual([id]);
      expect(await w.jobs.finish(id, 'tile.png', w.tick())).toMatchObject({ status: 'finished' });
    });

    it('an expired lease puts the job back for any process, its attempt counted, or fails it', async () => {
      const w = world();
      const once = await w.enqueued(w.hdJob(w.ann, 'once', { maxAttempts: 1 }));
      const again = await w.enqueued(w.hdJob(w.bob, 'again', { maxAttempts: 3 }));
      const claimedAt = w.clock + 1000;
      await w.claimed();
      await w.claimed();
      const b = w.other().jobs;
      // Renewed by its holder, a lease outlives its first term.
      expect(await w.jobs.renewLeases([again], w.at(claimedAt + LEASE_MS - 1000))).toEqual([again]);
      // Not before its term is over.
      expect(await b.expireLeases(w.at(claimedAt + LEASE_MS - 1000))).toEqual([]);
      const afterFirstTerm = await b.expireLeases(w.at(claimedAt + LEASE_MS + 2000));
      expect(afterFirstTerm.map((job) => [job.id, job.status, job.error])).toEqual([
        [once, 'error', 'Interrupted too many times'],
      ]);
      const afterRenewal = w.at(claimedAt + 2 * LEASE_MS);
      expect((await b.expireLeases(afterRenewal)).map((job) => [job.id, job.status])).toEqual([
        [again, 'queued'],
      ]);
      expect(await b.claim('hd', afterRenewal)).toMatchObject({ id: again, attempts: 2 });
      // The first holder lost it: its renewal says so, and its finish writes nothing.
      expect(await w.jobs.renewLeases([again], afterRenewal)).toEqual([]);
      expect(await w.jobs.finish(again, 'late.png', afterRenewal)).toBeUndefined();
      await expect(w.jobs.reserveOutput(again, 'late.png')).rejects.toThrow(JobNotHeldError);
      expect(await b.finish(again, 'tile.png', afterRenewal)).toMatchObject({
        status: 'finished',
        attempts: 2,
      });
    });

    it('a running job cancelled by its owner is no longer held: its renewal leaves it out', async () => {
      const w = world();
      const id = await w.enqueued(w.hdJob(w.ann, 'a', { dedupeKey: 'hd:tile.png:30x30' }));
      await w.claimed();
      await w.owner.cancelByKeyPrefix(w.ann, 'hd', 'hd:tile.png:', w.tick());
      expect(await w.jobs.renewLeases([id], w.tick())).toEqual([]);
      expect(await w.jobs.finish(id, 'tile.png', w.tick())).toBeUndefined();
      expect(await w.anns('a')).toMatchObject({ status: 'cancelled' });
    });
  });

  describe('a waiting notice', () => {
    const WAITING = 'The image storage cannot be reached right now';

    it('is kept on the running job until it goes on, then read back as absent', async () => {
      const w = world();
      const id = await w.enqueued(w.hdJob(w.ann, 'a'));
      await w.claimed();
      expect((await w.anns('a'))?.notice).toBeUndefined();
      await w.jobs.noteWaiting(id, WAITING);
      expect((await w.anns('a'))?.notice).toBe(WAITING);
      expect((await w.owner.latest(w.ann, 'hd'))?.notice).toBe(WAITING);
      await w.jobs.noteWaiting(id, null);
      expect(await w.anns('a')).not.toHaveProperty('notice');
    });

    it('is written only by the process holding the job', async () => {
      const w = world();
      const id = await w.enqueued(w.hdJob(w.ann, 'a'));
      await w.claimed();
      await w.other().jobs.noteWaiting(id, WAITING);
      expect((await w.anns('a'))?.notice).toBeUndefined();
    });

    it('ends with the run: finished, retried, failed, released, interrupted or expired', async () => {
      const w = world();
      const ends: ((id: number) => Promise<unknown>)[] = [
        (id) => w.jobs.finish(id, 'tile.png', w.tick()),
        (id) => w.jobs.retry(id, 'engine crashed', w.at(w.clock + 3_600_000), w.tick()),
        (id) => w.jobs.fail(id, 'out of memory', w.tick()),
        (id) => w.jobs.release(id, w.at(w.clock + 3_600_000)),
        () => w.jobs.requeueInterrupted(w.at(w.clock + 3_600_000)),
        () => w.other().jobs.expireLeases(w.at(w.clock + 2 * LEASE_MS)),
      ];
      for (const [index, end] of ends.entries()) {
        const publicId = `job-${index}`;
        await w.enqueued(w.hdJob(w.ann, publicId));
        const id = await w.claimed();
        expect((await w.anns(publicId))?.id).toBe(id);
        await w.jobs.noteWaiting(id, WAITING);
        await end(id);
        expect((await w.anns(publicId))?.notice).toBeUndefined();
        // Out of the way of the next claim.
        await w.owner.cancel(w.ann, 'hd', publicId, w.tick());
      }
    });
  });

  describe('watch', () => {
    /** The next kind a watcher hears, and the way to stop it. */
    async function nextWake(w: QueueWorld) {
      let heard!: (kind: JobKind) => void;
      const wake = new Promise<JobKind>((resolve) => (heard = resolve));
      const stop = await w.jobs.watch((kind) => heard(kind));
      return { wake, stop };
    }

    it('wakes its watchers when jobs are queued, put back or expired, and stops when told', async () => {
      const w = world();
      const heard: JobKind[] = [];
      const stopAll = await w.jobs.watch((kind) => heard.push(kind));
      const a = await w.enqueued(w.hdJob(w.ann, 'a', { maxAttempts: 9 }));
      // Each step: what runs before a watcher listens, then what must wake it.
      const steps: [string, () => Promise<unknown>, () => Promise<unknown>][] = [
        [
          'enqueue',
          () => Promise.resolve(),
          () => w.jobs.enqueue(w.previewJob(w.ann, 'p'), w.tick()),
        ],
        ['retry', () => w.claimed(), () => w.jobs.retry(a, 'engine crashed', w.tick(), w.tick())],
        ['release', () => w.claimed(), () => w.jobs.release(a, w.tick())],
        ['requeueInterrupted', () => w.claimed(), () => w.jobs.requeueInterrupted(w.tick())],
        [
          'expireLeases',
          () => w.claimed(),
          () => w.jobs.expireLeases(w.at(w.clock + 2 * LEASE_MS)),
        ],
      ];
      for (const [name, before, act] of steps) {
        await before();
        const { wake, stop } = await nextWake(w);
        await act();
        expect(await wake, name).toBe(name === 'enqueue' ? 'preview' : 'hd');
        await stop();
      }
      await stopAll();
      expect(heard).toContain('preview');
      const count = heard.length;
      // A stopped watcher hears nothing more: one still listening has heard the next wake.
      const { wake, stop } = await nextWake(w);
      await w.enqueued(w.hdJob(w.bob, 'b'));
      expect(await wake).toBe('hd');
      await stop();
      expect(heard).toHaveLength(count);
    });
  });
}
