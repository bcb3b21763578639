import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { errorText } from '@tessera/contract';
import type { JobKind, JobOrder, JobRecord } from './job.js';
import { JobNotHeldError } from './queue.js';
import { openDatabase } from '../store/database.js';
import { createJobQueue, createSqliteJobQueue, type StoredJobQueue } from '../store/jobs.js';
import { HD_PARAMS, PREVIEW_PARAMS } from '../testing/job-params.js';
import { createTestStore, silentLogger, type TestStore } from '../testing/fixtures.js';
import { JobRunner, type JobHandler, type JobHandlers, type JobPolicy } from './runner.js';

let store: TestStore;
let repo: StoredJobQueue;
let runners: JobRunner[] = [];
let ownerA: number;
let ownerB: number;

beforeEach(async () => {
  store = await createTestStore(['ann', 'ben']);
  repo = createJobQueue(store.db);
  const ids = await store.db.selectFrom('users').select(['id', 'username']).execute();
  ownerA = ids.find((u) => u.username === 'ann')?.id ?? 0;
  ownerB = ids.find((u) => u.username === 'ben')?.id ?? 0;
});
afterEach(async () => {
  await Promise.all(runners.map((r) => r.stop()));
  runners = [];
  await store.close();
});

type TestKind = JobPolicy & { handler: JobHandler };

function kind(handler: JobHandler, extra: Partial<JobPolicy> = {}): TestKind {
  return { handler, concurrency: 1, maxAttempts: 3, retryDelayMs: () => 10, ...extra };
}

const handlersOf = new WeakMap<JobRunner, JobHandlers>();

/** A kind the test queues nothing of: every runner has all kinds, as start-up demands. */
const idle = kind(() => Promise.reject(new Error('no job of this kind is queued here')));

/** A runner of the kinds a test names, the others idle. */
function runner(kinds: Partial<Record<JobKind, TestKind>>): JobRunner {
  const all = { preview: idle, hd: idle, maps: idle, print: idle, ...kinds };
  const r = new JobRunner(repo, all, silentLogger);
  handlersOf.set(r, {
    preview: all.preview.handler,
    hd: all.hd.handler,
    maps: all.maps.handler,
    print: all.print.handler,
  });
  runners.push(r);
  return r;
}

/** Starts a runner made by runner() with the handlers it was given. */
const start = (r: JobRunner) => r.start(handlersOf.get(r) as JobHandlers);

/** Resolves when `count` jobs have reached a final state. */
function settled(r: JobRunner, count: number): Promise<JobRecord[]> {
  const done: JobRecord[] = [];
  return new Promise((resolve) =>
    r.onChange((job) => {
      if (job.status === 'finished' || job.status === 'error') {
        done.push(job);
        if (done.length === count) resolve(done);
      }
    }),
  );
}

describe('the job runner', () => {
  it('runs queued jobs one at a time, records the output, and reports rising progress', async () => {
    let active = 0;
    let most = 0;
    const seen: number[] = [];
    const r = runner({
      preview: kind(async (job, { progress }) => {
        most = Math.max(most, ++active);
        for (const p of [10, 40, 70]) {
          progress(p);
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
        active--;
        return `out-${job.publicId}.png`;
      }),
    });
    r.onChange(
      (job) => job.publicId === 'j1' && job.status === 'in_progress' && seen.push(job.percent),
    );
    await start(r);
    const done = settled(r, 3);
    for (const id of ['j1', 'j2', 'j3'])
      await r.enqueue({ publicId: id, ownerId: ownerA, kind: 'preview', params: PREVIEW_PARAMS });
    const finished = await done;
    expect(finished.map((j) => [j.publicId, j.status, j.output, j.percent])).toEqual([
      ['j1', 'finished', 'out-j1.png', 100],
      ['j2', 'finished', 'out-j2.png', 100],
      ['j3', 'finished', 'out-j3.png', 100],
    ]);
    expect(most).toBe(1);
    expect(seen).toEqual([0, 10, 40, 70]);
  });

  it('retries a failed job through the queue, then succeeds', async () => {
    let calls = 0;
    const statuses: string[] = [];
    const r = runner({
      hd: kind(() =>
        ++calls < 3 ? Promise.reject(new Error(`boom ${calls}`)) : Promise.resolve('ok.png'),
      ),
    });
    r.onChange((job) => statuses.push(job.status));
    await start(r);
    const done = settled(r, 1);
    await r.enqueue({ publicId: 'h1', ownerId: ownerA, kind: 'hd', params: HD_PARAMS });
    const [job] = await done;
    expect(job).toMatchObject({ status: 'finished', attempts: 3, output: 'ok.png' });
    expect(statuses).toEqual([
      'queued',
      'in_progress',
      'queued',
      'in_progress',
      'queued',
      'in_progress',
      'finished',
    ]);
  });

  it('ends in error when every attempt fails, with a readable text, the detail kept for the log (issue 22, part 5)', async () => {
    const r = runner({
      hd: kind(() => Promise.reject(new Error('engine on fire')), { maxAttempts: 2 }),
    });
    await start(r);
    const done = settled(r, 1);
    await r.enqueue({ publicId: 'h1', ownerId: ownerA, kind: 'hd', params: HD_PARAMS });
    expect((await done)[0]).toMatchObject({
      status: 'error',
      attempts: 2,
      error: errorText('JOB_FAILED'),
    });
  });

  it("does not let one owner's many jobs starve another's single one", async () => {
    const order: string[] = [];
    const r = runner({
      hd: kind(async (job) => {
        order.push(job.publicId);
        return 'x';
      }),
    });
    // Queue everything before the runner starts, as after a burst of orders.
    for (let i = 1; i <= 5; i++)
      await repo.enqueue(
        { publicId: `a${i}`, ownerId: ownerA, kind: 'hd', params: HD_PARAMS, maxAttempts: 1 },
        new Date(),
      );
    await repo.enqueue(
      { publicId: 'b1', ownerId: ownerB, kind: 'hd', params: HD_PARAMS, maxAttempts: 1 },
      new Date(),
    );
    const done = settled(r, 6);
    await start(r);
    await done;
    expect(order).toEqual(['a1', 'b1', 'a2', 'a3', 'a4', 'a5']);
  });

  it('refuses a second live job with the same dedupe key', async () => {
    const r = runner({
      hd: kind(
        (_job, { signal }) =>
          new Promise((_resolve, reject) => signal.addEventListener('abort', reject)),
      ),
    });
    const first = await r.enqueue({
      publicId: 'h1',
      ownerId: ownerA,
      kind: 'hd',
      params: HD_PARAMS,
      dedupeKey: 'img.png@30x30',
    });
    const again = await r.enqueue({
      publicId: 'h2',
      ownerId: ownerA,
      kind: 'hd',
      params: HD_PARAMS,
      dedupeKey: 'img.png@30x30',
    });
    const other = await r.enqueue({
      publicId: 'h3',
      ownerId: ownerB,
      kind: 'hd',
      params: HD_PARAMS,
      dedupeKey: 'img.png@30x30',
    });
    expect(first?.publicId).toBe('h1');
    expect(again).toBeUndefined();
    expect(other?.publicId).toBe('h3');
  });

  it('puts a job a crash left in progress back in the queue and runs it once', async () => {
    await repo.enqueue(
      { publicId: 'p1', ownerId: ownerA, kind: 'preview', params: PREVIEW_PARAMS, maxAttempts: 3 },
      new Date(),
    );
    await repo.claim('preview', new Date()); // the process that claimed it died here
    let runs = 0;
    const r = runner({
      preview: kind(async () => {
        runs++;
        return 'done.png';
      }),
    });
    const done = settled(r, 1);
    await start(r);
    expect((await done)[0]).toMatchObject({ publicId: 'p1', status: 'finished', attempts: 2 });
    // A job queued after it runs next (one at a time): p1 did not run again meanwhile.
    const next = settled(r, 1);
    await repo.enqueue(
      { publicId: 'p2', ownerId: ownerA, kind: 'preview', params: PREVIEW_PARAMS, maxAttempts: 3 },
      new Date(),
    );
    r.wake('preview');
    expect((await next)[0]).toMatchObject({ publicId: 'p2', status: 'finished', attempts: 1 });
    expect(runs).toBe(2);
  });

  it('never shows a lower percent after a restart: the stored progress is the floor (issue 23, part 12)', async () => {
    await repo.enqueue(
      { publicId: 'p1', ownerId: ownerA, kind: 'preview', params: PREVIEW_PARAMS, maxAttempts: 3 },
      new Date(),
    );
    const dead = await repo.claim('preview', new Date());
    // The process that died had shown 27 %.
    await repo.progress(dead?.id ?? 0, 27, new Date());
    const r = runner({
      preview: kind(async (_job, { progress }) => {
        // The rerun starts its work over (a ComfyUI prompt picked up at 37 %).
        for (const p of [0, 5, 20, 37, 60]) progress(p);
        return 'done.png';
      }),
    });
    const shown: [string, number][] = [];
    r.onChange((job) => shown.push([job.status, job.percent]));
    const done = settled(r, 1);
    await start(r);
    await done;
    expect(shown).toEqual([
      ['queued', 27],
      ['in_progress', 27],
      ['in_progress', 37],
      ['in_progress', 60],
      ['finished', 100],
    ]);
    // What was shown last before it ended is stored too, for the next restart.
    expect(await repo.latest(ownerA, 'preview')).toMatchObject({ percent: 100 });
  });

  it('on stop, aborts the running job and returns it to the queue without counting the attempt', async () => {
    let aborted = false;
    const r = runner({
      preview: kind(
        (_job, { signal }) =>
          new Promise((_resolve, reject) =>
            signal.addEventListener('abort', () => {
              aborted = true;
              reject(new Error('aborted'));
            }),
          ),
      ),
    });
    await start(r);
    const started = new Promise((resolve) =>
      r.onChange((job) => job.status === 'in_progress' && resolve(job)),
    );
    await r.enqueue({ publicId: 'p1', ownerId: ownerA, kind: 'preview', params: PREVIEW_PARAMS });
    await started;
    await r.stop();
    expect(aborted).toBe(true);
    expect(await repo.latest(ownerA, 'preview')).toMatchObject({ status: 'queued', attempts: 0 });
  });

  it('a run whose job another process took meanwhile stops before writing, and writes nothing', async () => {
    const changes: string[] = [];
    let reserved: unknown;
    let stolen!: () => void;
    const taken = new Promise<void>((resolve) => (stolen = resolve));
    const r = runner({
      hd: kind(async (_job, { reserveOutput, signal }) => {
        await taken;
        reserved = await reserveOutput('late.png').catch((err: unknown) => err);
        // The run is stopped as well, so a handler that goes on writes nothing either.
        expect(signal.aborted).toBe(true);
        return 'late.png';
      }),
    });
    let running!: () => void;
    const inProgress = new Promise<void>((resolve) => (running = resolve));
    r.onChange((job) => {
      changes.push(job.status);
      if (job.status === 'in_progress') running();
    });
    await start(r);
    await r.enqueue({ publicId: 'h1', ownerId: ownerA, kind: 'hd', params: HD_PARAMS });
    await inProgress;
    // Another process finds the lease expired (its clock a term ahead) and claims the job.
    const other = createJobQueue(store.db, { lease: { holder: 'other', ms: 30_000 } });
    const later = new Date(Date.now() + 31_000);
    expect(await other.expireLeases(later)).toHaveLength(1);
    expect(await other.claim('hd', later)).toMatchObject({ publicId: 'h1', attempts: 2 });
    stolen();
    await r.stop();

    expect(reserved).toBeInstanceOf(JobNotHeldError);
    expect(changes).toEqual(['queued', 'in_progress']);
    expect(await repo.findByPublicId(ownerA, 'hd', 'h1')).toMatchObject({
      status: 'in_progress',
      output: null,
      attempts: 2,
    });
  });

  it('refuses to start with a kind that has no handler', async () => {
    const r = runner({ preview: kind(() => Promise.resolve('x.png')) });
    await expect(
      r.start({ preview: () => Promise.resolve('x.png') } as unknown as JobHandlers),
    ).rejects.toThrow("No handler for jobs of kind 'hd'");
  });

  it('refuses a job of a kind it has no handler for', async () => {
    const r = runner({});
    await expect(
      // A kind from outside the type, as plain JS or a stray row could bring.
      r.enqueue({
        publicId: 'x',
        ownerId: ownerA,
        kind: 'mystery',
        params: {},
      } as unknown as JobOrder),
    ).rejects.toThrow("No handler for jobs of kind 'mystery'");
  });

  it('[#16] stops a job it runs when another process cancels it in the shared queue', async () => {
    // The worker: a runner on its own connection to the same SQLite file, as another process.
    const workerDb = await openDatabase({ dataDir: store.dataDir });
    try {
      const workerQueue = createSqliteJobQueue(workerDb);
      // The handler's moments, as events: it runs, then its signal fires.
      let started!: () => void;
      const running = new Promise<void>((resolve) => (started = resolve));
      let aborted!: () => void;
      const stopped = new Promise<void>((resolve) => (aborted = resolve));
      const all = {
        preview: idle,
        maps: idle,
        print: idle,
        hd: kind((_job, { signal }) => {
          started();
          return new Promise<string>((_resolve, reject) =>
            signal.addEventListener('abort', () => {
              aborted();
              reject(signal.reason as Error);
            }),
          );
        }),
      };
      const worker = new JobRunner(workerQueue, all, silentLogger);
      runners.push(worker);
      await worker.start({
        preview: idle.handler,
        maps: idle.handler,
        print: idle.handler,
        hd: all.hd.handler,
      });
      await repo.enqueue(
        {
          publicId: 'h1',
          ownerId: ownerA,
          kind: 'hd',
          params: HD_PARAMS,
          dedupeKey: 'hd:img.png:30x30',
          maxAttempts: 3,
        },
        new Date(),
      );
      worker.wake('hd');
      await running;

      // The web process cancels it (the LD image was deleted there): only the store knows.
      expect(await repo.cancelByKeyPrefix(ownerA, 'hd', 'hd:img.png', new Date())).toHaveLength(1);

      // The worker hears of it from the store (its lease or watch): bounded by the test's timeout.
      await stopped;
      await worker.stop();
      expect((await repo.findByPublicId(ownerA, 'hd', 'h1'))?.status).toBe('cancelled');
    } finally {
      await workerDb.destroy();
    }
  });
});
