import { describe, expect, it } from 'vitest';
import type { JobKind } from './job.js';
import type { QueueWorld } from './queue-contract-world.suite.js';

/** The owners' port (OwnerQueue): their jobs, cancelling, the claim's order, move and pause. */
export function describeOwnerPage(world: () => QueueWorld): void {
  describe("the owner's view and cancelling", () => {
    it('cancels a queued job of the owner; a running one, or another owner’s, stays', async () => {
      const w = world();
      await w.enqueued(w.hdJob(w.ann, 'running'));
      await w.enqueued(w.hdJob(w.ann, 'waiting'));
      await w.claimed();
      expect(await w.owner.cancel(w.ann, 'hd', 'waiting', w.tick())).toMatchObject({
        status: 'cancelled',
      });
      expect(await w.owner.cancel(w.ann, 'hd', 'running', w.tick())).toMatchObject({
        status: 'in_progress',
      });
      expect(await w.owner.cancel(w.bob, 'hd', 'waiting', w.tick())).toBeUndefined();
      expect(await w.owner.cancel(w.ann, 'preview', 'running', w.tick())).toBeUndefined();
      // A cancelled job is never claimed.
      expect(await w.jobs.claim('hd', w.tick())).toBeUndefined();
    });

    it('cancels the live jobs of one image by key prefix, % and _ in names taken as they are', async () => {
      const w = world();
      const waiting = await w.enqueued(w.hdJob(w.ann, 'a', { dedupeKey: 'hd:a_b%.png:30x30' }));
      const running = await w.enqueued(w.hdJob(w.ann, 'b', { dedupeKey: 'hd:a_b%.png:60x60' }));
      await w.claimed();
      const lookalike = await w.enqueued(w.hdJob(w.ann, 'c', { dedupeKey: 'hd:aXbY.png:30x30' }));
      await w.enqueued(w.hdJob(w.bob, 'd', { dedupeKey: 'hd:a_b%.png:30x30' }));
      const cancelled = await w.owner.cancelByKeyPrefix(w.ann, 'hd', 'hd:a_b%.png:', w.tick());
      expect(cancelled.map((job) => job.id).sort()).toEqual([waiting, running].sort());
      expect(cancelled.map((job) => job.status)).toEqual(['cancelled', 'cancelled']);
      expect(await w.owner.findLive(w.ann, 'hd', 'hd:aXbY.png:30x30')).toMatchObject({
        id: lookalike,
      });
      expect(await w.owner.findLive(w.bob, 'hd', 'hd:a_b%.png:30x30')).toBeDefined();
      expect(await w.owner.findLive(w.ann, 'hd', 'hd:a_b%.png:30x30')).toBeUndefined();
      expect(await w.owner.cancelByKeyPrefix(w.ann, 'hd', 'hd:a_b%.png:', w.tick())).toEqual([]);
    });

    it("lists the owner's jobs newest first, and their latest leaves out cancelled ones", async () => {
      const w = world();
      for (const id of ['a', 'b', 'c']) await w.enqueued(w.hdJob(w.ann, id));
      await w.enqueued(w.hdJob(w.bob, 'x'));
      expect((await w.owner.list(w.ann, 'hd', 2)).map((j) => j.publicId)).toEqual(['c', 'b']);
      expect((await w.owner.latest(w.ann, 'hd'))?.publicId).toBe('c');
      await w.owner.cancel(w.ann, 'hd', 'c', w.tick());
      expect((await w.owner.latest(w.ann, 'hd'))?.publicId).toBe('b');
      expect(await w.owner.latest(w.ann, 'preview')).toBeUndefined();
      expect(await w.owner.list(w.ann, 'preview', 10)).toEqual([]);
    });

    it('finds a job by the public id the client knows, its latest if it was queued again', async () => {
      const w = world();
      await w.enqueued(w.hdJob(w.ann, 'a'));
      await w.owner.cancel(w.ann, 'hd', 'a', w.tick());
      const again = await w.enqueued(w.hdJob(w.ann, 'a'));
      expect(await w.anns('a')).toMatchObject({ id: again, status: 'queued' });
      expect(await w.owner.findByPublicId(w.bob, 'hd', 'a')).toBeUndefined();
      expect(await w.owner.findByPublicId(w.ann, 'preview', 'a')).toBeUndefined();
    });

    it('pauses and resumes an owner’s queue of one kind', async () => {
      const w = world();
      expect(await w.owner.isPaused(w.ann, 'hd')).toBe(false);
      await w.owner.pause(w.ann, 'hd', w.tick());
      await w.owner.pause(w.ann, 'hd', w.tick());
      expect(await w.owner.isPaused(w.ann, 'hd')).toBe(true);
      expect(await w.owner.isPaused(w.ann, 'preview')).toBe(false);
      expect(await w.owner.isPaused(w.bob, 'hd')).toBe(false);
      await w.owner.resume(w.ann, 'hd');
      await w.owner.resume(w.ann, 'hd');
      expect(await w.owner.isPaused(w.ann, 'hd')).toBe(false);
    });

    it('a resume wakes the runners, whose claims then take the owner’s jobs', async () => {
      const w = world();
      await w.owner.pause(w.ann, 'hd', w.tick());
      await w.enqueued(w.hdJob(w.ann, 'a'));
      expect(await w.jobs.claim('hd', w.tick())).toBeUndefined();
      let heard!: (kind: JobKind) => void;
      const wake = new Promise<JobKind>((resolve) => (heard = resolve));
      const stop = await w.jobs.watch((kind) => heard(kind));
      await w.owner.resume(w.ann, 'hd');
      expect(await wake).toBe('hd');
      await stop();
      expect((await w.jobs.claim('hd', w.tick()))?.publicId).toBe('a');
    });
  });

  describe("the claim's order", () => {
    it('owners take turns, never-served owners first; within a turn the owner’s own order', async () => {
      const w = world();
      const cy = await w.under.addOwner('cy');
      for (const id of ['a1', 'a2', 'a3']) await w.enqueued(w.hdJob(w.ann, id));
      for (const id of ['b1', 'b2']) await w.enqueued(w.hdJob(w.bob, id));
      expect(await w.claimAll()).toEqual(['a1', 'b1', 'a2', 'b2', 'a3']);
      // Cy, never served, goes first; then Bob, served longer ago than Ann.
      for (const id of ['a4', 'a5']) await w.enqueued(w.hdJob(w.ann, id));
      await w.enqueued(w.hdJob(w.bob, 'b3'));
      await w.enqueued(w.hdJob(cy, 'c1'));
      await w.owner.moveToTop(w.ann, 'hd', 'a5', w.tick());
      expect(await w.claimAll()).toEqual(['c1', 'b3', 'a5', 'a4']);
    });

    it('moves a queued job to the top of its owner’s queue; a running one stays as it is', async () => {
      const w = world();
      for (const id of ['a', 'b', 'c', 'd']) await w.enqueued(w.hdJob(w.ann, id));
      const running = await w.jobs.claim('hd', w.tick());
      expect(await w.owner.moveToTop(w.ann, 'hd', 'a', w.tick())).toMatchObject({
        status: 'in_progress',
        queueOrder: running?.queueOrder,
      });
      const moved = await w.owner.moveToTop(w.ann, 'hd', 'c', w.tick());
      expect(moved?.queueOrder).toBeLessThan((await w.anns('b'))?.queueOrder ?? -Infinity);
      await w.owner.moveToTop(w.ann, 'hd', 'd', w.tick());
      expect(await w.owner.moveToTop(w.bob, 'hd', 'b', w.tick())).toBeUndefined();
      expect(await w.claimAll()).toEqual(['d', 'c', 'b']);
    });

    it('passes over a paused owner and jobs waiting for their run_after', async () => {
      const w = world();
      await w.enqueued(w.hdJob(w.ann, 'a1'));
      const later = await w.enqueued(w.hdJob(w.bob, 'b1'));
      await w.enqueued(w.hdJob(w.bob, 'b2'));
      await w.claimed();
      await w.claimed();
      await w.jobs.retry(later, 'engine crashed', w.at(w.clock + 60_000), w.tick());
      await w.owner.pause(w.ann, 'hd', w.tick());
      await w.enqueued(w.hdJob(w.ann, 'a2'));
      // b1 waits for its run_after; bob's turn goes to b2 only once b1 is no candidate.
      expect(await w.claimAll()).toEqual(['b2']);
      await w.owner.resume(w.ann, 'hd');
      expect(await w.claimAll()).toEqual(['a2']);
    });

    it('a pause holds back queued jobs only: the running one goes on to its end', async () => {
      const w = world();
      const id = await w.enqueued(w.hdJob(w.ann, 'a'));
      await w.enqueued(w.hdJob(w.ann, 'b'));
      await w.claimed();
      await w.owner.pause(w.ann, 'hd', w.tick());
      expect(await w.jobs.renewLeases([id], w.tick())).toEqual([id]);
      expect(await w.jobs.finish(id, 'tile.png', w.tick())).toMatchObject({ status: 'finished' });
      expect(await w.jobs.claim('hd', w.tick())).toBeUndefined();
    });
  });
}
