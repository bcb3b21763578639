import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../store/database.js';
import { createJobQueue } from '../store/jobs.js';
import { addOwner } from '../testing/database.js';
import { silentLogger } from '../testing/fixtures.js';
import { HD_PARAMS } from '../testing/job-params.js';
import {
  createScratchPostgres,
  postgresMissing,
  type ScratchPostgres,
} from '../testing/postgres.js';
import { captureOutput, finished, spawnEntry } from '../testing/processes.js';
import type { JobRecord } from './job.js';
import { newLeaseHolder } from './lease.js';
import type { JobQueue } from './queue.js';
import { JobRunner, type JobHandler, type JobPolicy, type RunnerOptions } from './runner.js';
import { untilAborted } from '../testing/until-aborted.js';

// Several processes on one PostgreSQL job queue (issue 16, part 2): each with its own pool, its
// own lease holder and its own LISTEN connection, as separate server processes have. Skipped with
// a notice without PostgreSQL, except in CI.
const missing = await postgresMissing();

describe.skipIf(missing)('[#16] the job queue shared by several processes on PostgreSQL', () => {
  let database: ScratchPostgres;
  /** The test's own view of the database, for queueing and checking. */
  let db: Db;
  let owners: number[];
  /** Everything a test opened, closed after it. */
  let cleanups: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    database = await createScratchPostgres();
    db = await openDatabase({ dataDir: '.', url: database.url, poolSize: 4 });
    owners = [];
    for (const name of ['ann', 'bob', 'cy']) owners.push(await addOwner(db, name));
  }, 30_000);
  afterAll(async () => {
    await db?.destroy();
    await database?.drop();
  });
  beforeEach(async () => {
    await db.deleteFrom('jobs').execute();
  });
  afterEach(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
    cleanups = [];
  });

  /** A queue over a pool of its own, as another process has; a lease of `leaseMs`. */
  async function processQueue(leaseMs = 30_000): Promise<JobQueue> {
    const own = await openDatabase({ dataDir: '.', url: database.url, poolSize: 3 });
    cleanups.push(() => own.destroy());
    return createJobQueue(own, {
      lease: { holder: newLeaseHolder(), ms: leaseMs },
      listenUrl: database.url,
    });
  }

  const policy: JobPolicy = { concurrency: 1, maxAttempts: 2, retryDelayMs: () => 10 };
  const never: JobHandler = () => Promise.reject(new Error('no job of this kind is queued'));

  /** A started runner, in "another process", running HD jobs with `hd`. */
  async function processRunner(
    hd: JobHandler<'hd'>,
    leaseMs?: number,
    options: RunnerOptions = {},
  ): Promise<JobRunner> {
    const queue = await processQueue(leaseMs);
    const runner = new JobRunner(
      queue,
      { preview: policy, hd: policy, maps: policy, print: policy },
      silentLogger,
      undefined,
      { requeueAtStart: false, ...options },
    );
    await runner.start({ preview: never, maps: never, print: never, hd });
    cleanups.push(() => runner.stop());
    return runner;
  }

  async function enqueue(publicId: string, ownerId = owners[0] ?? 0): Promise<number> {
    const queue = createJobQueue(db);
    const job = await queue.enqueue(
      { publicId, ownerId, kind: 'hd', params: HD_PARAMS, maxAttempts: 2 },
      new Date(),
    );
    if (!job) throw new Error(`not queued: ${publicId}`);
    return job.id;
  }

  /** Rejects when the run is stopped: a failing test's runners stop rather than hang. */
  const aborted = (signal: AbortSignal) => untilAborted(signal);

  const rows = () =>
    db
      .selectFrom('jobs')
      .select(['public_id', 'status', 'attempts', 'lease_expires_at'])
      .orderBy('id')
      .execute();

  /** Resolves when `count` jobs have finished, as seen by any of these runners. */
  function allFinished(runners: JobRunner[], count: number): Promise<void> {
    const done = new Set<number>();
    return new Promise((resolve) => {
      for (const runner of runners)
        runner.onChange((job) => {
          if (job.status === 'finished') done.add(job.id);
          if (done.size === count) resolve();
        });
    });
  }

  it('two runners with pools of their own run each of 30 jobs exactly once, side by side', async () => {
    const ran: string[] = [];
    // Each runner's first job waits until the other runner runs one too: the runners really
    // claim side by side (this would never resolve if one runner's claim blocked the other's).
    let arrived = 0;
    let bothRunning!: () => void;
    const together = new Promise<void>((resolve) => (bothRunning = resolve));
    const firstOfEach = new Set<string>();
    const handler =
      (runner: string): JobHandler<'hd'> =>
      async (job, { signal }) => {
        ran.push(job.publicId);
        if (!firstOfEach.has(runner)) {
          firstOfEach.add(runner);
          if (++arrived === 2) bothRunning();
          await Promise.race([together, aborted(signal)]);
        }
        return `${job.publicId}.png`;
      };
    for (let i = 0; i < 30; i++) await enqueue(`job-${i}`, owners[i % 3]);
    const a = await processRunner(handler('a'));
    const b = await processRunner(handler('b'));
    await allFinished([a, b], 30);

    expect([...ran].sort()).toEqual(Array.from({ length: 30 }, (_, i) => `job-${i}`).sort());
    const stored = await rows();
    expect(stored.every((row) => row.status === 'finished' && row.attempts === 1)).toBe(true);
  });

  it('SKIP LOCKED: a claim passes over the row another claim holds, and that owner with it', async () => {
    const [ann = 0, bob = 0] = owners;
    const annFirst = await enqueue('ann-1', ann);
    await enqueue('ann-2', ann);
    const bobFirst = await enqueue('bob-1', bob);

    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let claimed!: (job: JobRecord | undefined) => void;
    const claimedInFirst = new Promise<JobRecord | undefined>((resolve) => (claimed = resolve));
    const first = db.transaction().execute(async (trx) => {
      claimed(await createJobQueue(trx).claim('hd', new Date()));
      await held;
    });
    expect((await claimedInFirst)?.id).toBe(annFirst);

    // The first transaction is still open, its row locked. A plain FOR UPDATE would wait for it
    // (the lock timeout turns that wait into a failure rather than a hang).
    const second = await db.transaction().execute(async (trx) => {
      await sql`set local lock_timeout = '5s'`.execute(trx);
      return createJobQueue(trx).claim('hd', new Date());
    });
    // Not ann's second job: ann's turn is the one being taken; bob's comes next.
    expect(second?.id).toBe(bobFirst);

    release();
    await first;
    expect((await rows()).map((row) => [row.public_id, row.status])).toEqual([
      ['ann-1', 'in_progress'],
      ['ann-2', 'queued'],
      ['bob-1', 'in_progress'],
    ]);
  });

  it('a runner killed with SIGKILL mid-job: its job runs again elsewhere once the lease expires, once', async () => {
    const id = await enqueue('orphan');
    const child = spawnEntry('testing/queue-process.ts', ['run'], {
      DATABASE_URL: database.url,
      JOB_LEASE_MS: '1000',
    });
    const output = captureOutput(child);
    const exited = finished(child);
    await output.waitFor(/running orphan/);

    const ranHere: string[] = [];
    const survivor = await processRunner(async (job) => {
      ranHere.push(job.publicId);
      return `${job.publicId}.png`;
    }, 1000);
    const done = allFinished([survivor], 1);
    child.kill('SIGKILL');
    await exited;
    await done;

    expect(ranHere).toEqual(['orphan']);
    expect(output.text().match(/running orphan/g)).toHaveLength(1);
    expect(await db.selectFrom('jobs').select(['id', 'status', 'attempts']).execute()).toEqual([
      { id, status: 'finished', attempts: 2 },
    ]);
  }, 30_000);

  it('a lease its runner renews is never taken, however long the job runs', async () => {
    const leaseMs = 600;
    let finishJob!: () => void;
    const canFinish = new Promise<void>((resolve) => (finishJob = resolve));
    const ranBy: string[] = [];
    let started!: () => void;
    const holderStarted = new Promise<void>((resolve) => (started = resolve));
    const holder = await processRunner(async (_job, { signal }) => {
      ranBy.push('holder');
      started();
      await Promise.race([canFinish, aborted(signal)]);
      return 'long.png';
    }, leaseMs);
    await enqueue('long');
    const done = allFinished([holder], 1);
    await holderStarted;
    const [claimed] = await rows();
    const firstExpiry = Date.parse(claimed?.lease_expires_at ?? '');

    // A second runner sweeps for expired leases every 200 ms all along.
    await processRunner(async () => {
      ranBy.push('thief');
      return 'stolen.png';
    }, leaseMs);
    // Run on until the lease has been renewed past four of its terms (read from the table: a
    // renewal announces nothing).
    for (;;) {
      const [row] = await rows();
      if (Date.parse(row?.lease_expires_at ?? '') > firstExpiry + 4 * leaseMs) break;
      expect(row?.status).toBe('in_progress');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    finishJob();
    await done;

    expect(ranBy).toEqual(['holder']);
    expect(await rows()).toMatchObject([{ public_id: 'long', status: 'finished', attempts: 1 }]);
  }, 30_000);

  it('a runner that only listens (its poll an hour) runs a job another process queues', async () => {
    const ran: string[] = [];
    const listener = await processRunner(
      async (job) => {
        ran.push(job.publicId);
        return `${job.publicId}.png`;
      },
      undefined,
      { pollMs: 3_600_000 },
    );
    const done = allFinished([listener], 1);
    const enqueuer = spawnEntry(
      'testing/queue-process.ts',
      ['enqueue', 'told', String(owners[1])],
      { DATABASE_URL: database.url },
    );
    const result = await finished(enqueuer);
    expect(result.stdout).toContain('queued');
    await done;
    expect(ran).toEqual(['told']);
  }, 30_000);
  it('a runner whose LISTEN connection was cut listens again and hears the next job', async () => {
    const ran: string[] = [];
    const listener = await processRunner(
      async (job) => {
        ran.push(job.publicId);
        return `${job.publicId}.png`;
      },
      undefined,
      { pollMs: 3_600_000 },
    );
    const listening = sql<{ count: number }>`
      select count(*)::int as count from pg_stat_activity
      where datname = current_database() and query = 'listen tessera_jobs'`;
    const cut = await sql<{ cut: boolean }>`
      select pg_terminate_backend(pid) as cut from pg_stat_activity
      where datname = current_database() and query = 'listen tessera_jobs'`.execute(db);
    expect(cut.rows).toEqual([{ cut: true }]);
    // Listening again: a new connection on the channel (the old one is gone); read from
    // PostgreSQL, as nothing announces it.
    for (;;) {
      const [row] = (await listening.execute(db)).rows;
      if (row?.count === 1) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const done = allFinished([listener], 1);
    await enqueue('after-the-cut', owners[2]);
    await done;
    expect(ran).toEqual(['after-the-cut']);
  }, 30_000);
});
