import { newLeaseHolder } from '../jobs/lease.js';
import { JobRunner, type JobPolicy } from '../jobs/runner.js';
import { openDatabase } from '../store/database.js';
import { createJobQueue } from '../store/jobs.js';
import { silentLogger } from './fixtures.js';
import { HD_PARAMS } from './job-params.js';
import { untilAborted } from './until-aborted.js';

/**
 * Another process on the shared job queue, for jobs/shared-queue.test.ts (run with tsx):
 *   run      a runner whose HD handler prints `running <public id>` and then never ends by itself
 *            (the test kills the process);
 *   enqueue  queues an HD job `<public id>` of owner `<owner id>`, prints `queued` and exits.
 * DATABASE_URL names the PostgreSQL database; JOB_LEASE_MS the lease term.
 */
const [mode, ...args] = process.argv.slice(2);
const url = process.env.DATABASE_URL;
if (!url) throw new Error('DATABASE_URL is required');
const db = await openDatabase({ dataDir: '.', url, poolSize: 2 });
const queue = createJobQueue(db, {
  lease: { holder: newLeaseHolder(), ms: Number(process.env.JOB_LEASE_MS ?? 30_000) },
  listenUrl: url,
});

if (mode === 'enqueue') {
  const [publicId = 'job', ownerId = '0'] = args;
  await queue.enqueue(
    { publicId, ownerId: Number(ownerId), kind: 'hd', params: HD_PARAMS, maxAttempts: 2 },
    new Date(),
  );
  console.log('queued');
  await db.destroy();
} else if (mode === 'run') {
  const policy: JobPolicy = { concurrency: 1, maxAttempts: 2, retryDelayMs: () => 10 };
  // One of several processes: what others left running comes back by lease expiry, not here.
  const runner = new JobRunner(
    queue,
    { preview: policy, hd: policy, maps: policy, print: policy },
    silentLogger,
    undefined,
    { requeueAtStart: false },
  );
  const never = () => Promise.reject(new Error('not run here'));
  await runner.start({
    preview: never,
    maps: never,
    print: never,
    hd: (job, { signal }) => {
      console.log(`running ${job.publicId}`);
      return untilAborted(signal);
    },
  });
} else {
  throw new Error(`Unknown mode '${mode ?? ''}': run or enqueue`);
}
