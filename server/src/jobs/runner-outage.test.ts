import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createJobQueue } from '../store/jobs.js';
import { createTestStore, silentLogger, type TestStore } from '../testing/fixtures.js';
import { PREVIEW_PARAMS } from '../testing/job-params.js';
import type { JobRecord } from './job.js';
import type { JobQueue } from './queue.js';
import { noticeWaiting } from '../runtime/waiting-notices.js';
import { JobRunner, type JobHandler, type JobPolicy } from './runner.js';

/**
 * Issue 23, part 10, at the runner's level: a store that refuses every call while it is "down"
 * (as a PostgreSQL outage does, ECONNREFUSED) under a job whose run has ended. The whole-process
 * test on a real PostgreSQL killed for 15 s is database-outage.test.ts.
 */

let store: TestStore;
let owner: number;
let down = false;
let refused = 0;
/** Called at each refused call. */
let onRefused: () => void = () => undefined;
let runner: JobRunner | undefined;

/** The real queue, but every call fails while `down`, as a database that is gone. */
function failingWhileDown(queue: JobQueue): JobQueue {
  return new Proxy(queue, {
    get(target, name, receiver) {
      const value: unknown = Reflect.get(target, name, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        if (!down) return (value as (...a: unknown[]) => unknown).apply(target, args);
        refused++;
        onRefused();
        return Promise.reject(
          Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
        );
      };
    },
  });
}

beforeEach(async () => {
  store = await createTestStore(['ann']);
  owner = (await store.db.selectFrom('users').select('id').executeTakeFirstOrThrow()).id;
  down = false;
  refused = 0;
  onRefused = () => undefined;
});
afterEach(async () => {
  await runner?.stop();
  runner = undefined;
  await store.close();
});

describe('the job runner through a store outage', () => {
  it('keeps a finished run through the outage, saves it once the store answers, never runs it again', async () => {
    const queue = failingWhileDown(createJobQueue(store.db));
    const policy: JobPolicy = { concurrency: 1, maxAttempts: 3, retryDelayMs: () => 10 };
    let runs = 0;
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const preview: JobHandler = async () => {
      runs++;
      started();
      await released;
      return 'out.png';
    };
    const never: JobHandler = () => Promise.reject(new Error('none queued'));
    runner = new JobRunner(
      queue,
      { preview: policy, hd: policy, maps: policy, print: policy },
      silentLogger,
      undefined,
      {
        storeRetry: { baseMs: 5, maxMs: 40 },
      },
    );
    const changes: JobRecord[] = [];
    const finished = new Promise<void>((resolve) =>
      runner?.onChange((job) => {
        changes.push(job);
        if (job.status === 'finished') resolve();
      }),
    );
    await runner.start({ preview, hd: never, maps: never, print: never });
    await runner.enqueue({
      publicId: 'p1',
      ownerId: owner,
      kind: 'preview',
      params: PREVIEW_PARAMS,
    });
    await running;

    down = true;
    release();
    // Several tries fail (the save, the lease renewals, the claims), spaced by the backoff.
    await new Promise<void>((resolve) => {
      onRefused = () => {
        if (refused >= 5) resolve();
      };
    });
    expect(changes.map((job) => job.status)).not.toContain('finished');
    down = false;
    await finished;

    expect(runs).toBe(1);
    const saved = await createJobQueue(store.db).findByPublicId(owner, 'preview', 'p1');
    expect(saved).toMatchObject({ status: 'finished', output: 'out.png', attempts: 1 });
    const statuses = changes.map((job) => job.status);
    // Never put back nor failed: the run's outcome waited for the store.
    expect(statuses.slice(statuses.indexOf('in_progress'))).not.toContain('queued');
    expect(statuses).not.toContain('error');
  });

  it('stores a waiting notice with the running job, its end through a store outage too', async () => {
    const WAITING = 'The image storage cannot be reached right now';
    const inner = failingWhileDown(createJobQueue(store.db));
    // The notice writes that reached the store, in order, and those refused: the events this
    // test waits for.
    const stored: (string | null)[] = [];
    let onStored: () => void = () => undefined;
    let refusedNotes = 0;
    let onRefusedNote: () => void = () => undefined;
    const queue = new Proxy(inner, {
      get(target, name, receiver) {
        const value: unknown = Reflect.get(target, name, receiver);
        if (name !== 'noteWaiting') return value;
        return async (id: number, notice: string | null) => {
          try {
            await (value as JobQueue['noteWaiting']).call(target, id, notice);
          } catch (err) {
            refusedNotes++;
            onRefusedNote();
            throw err;
          }
          stored.push(notice);
          onStored();
        };
      },
    });
    const storedCount = (count: number) =>
      new Promise<void>((resolve) => {
        onStored = () => (stored.length >= count ? resolve() : undefined);
        onStored();
      });
    const read = async () =>
      (await createJobQueue(store.db).findByPublicId(owner, 'preview', 'p1'))?.notice;
    let goOn!: () => void;
    const wentOn = new Promise<void>((resolve) => (goOn = resolve));
    let finish!: () => void;
    const finishing = new Promise<void>((resolve) => (finish = resolve));
    const preview: JobHandler = async () => {
      noticeWaiting(WAITING);
      await wentOn;
      noticeWaiting(undefined);
      await finishing;
      return 'out.png';
    };
    const never: JobHandler = () => Promise.reject(new Error('none queued'));
    const policy: JobPolicy = { concurrency: 1, maxAttempts: 3, retryDelayMs: () => 10 };
    runner = new JobRunner(
      queue,
      { preview: policy, hd: policy, maps: policy, print: policy },
      silentLogger,
      undefined,
      {
        storeRetry: { baseMs: 5, maxMs: 40 },
      },
    );
    const told: (string | undefined)[] = [];
    runner.onChange((job) => job.status === 'in_progress' && told.push(job.notice));
    await runner.start({ preview, hd: never, maps: never, print: never });
    await runner.enqueue({
      publicId: 'p1',
      ownerId: owner,
      kind: 'preview',
      params: PREVIEW_PARAMS,
    });

    await storedCount(1);
    expect(await read()).toBe(WAITING);
    expect(told).toContain(WAITING);

    // The store is down as the run goes on: the clearing write is tried again until it lands.
    down = true;
    const refusedTwice = new Promise<void>((resolve) => {
      onRefusedNote = () => (refusedNotes >= 2 ? resolve() : undefined);
    });
    goOn();
    await refusedTwice;
    down = false;
    await storedCount(2);
    expect(stored).toEqual([WAITING, null]);
    expect(await read()).toBeUndefined();
    expect(told.at(-1)).toBeUndefined();

    const done = new Promise<void>((resolve) =>
      runner?.onChange((job) => (job.status === 'finished' ? resolve() : undefined)),
    );
    finish();
    await done;
    expect(await read()).toBeUndefined();
  });
});
