import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addOwner, freshDatabase, type TestDatabase } from '../testing/database.js';
import { HD_PARAMS } from '../testing/job-params.js';
import { createJobQueue, type StoredJobQueue } from './jobs.js';

// A running job's waiting notice on the jobs table (issue 23, part 11): what a status read in
// any process shows while the job waits for the object store. SQLite and PostgreSQL. How every
// queue keeps and ends it is the contract's (jobs/queue-contract-runner.suite.ts); here, a row
// put back by another hand than the queue's.

const WAITING = 'The image storage cannot be reached right now';

let store: TestDatabase;
let queue: StoredJobQueue;
let ann: number;
let clock: number;
const tick = () => new Date((clock += 1000));

beforeEach(async () => {
  store = await freshDatabase();
  queue = createJobQueue(store.db, { lease: { holder: 'process-a', ms: 30_000 } });
  ann = await addOwner(store.db, 'ann');
  clock = Date.parse('2026-01-01T00:00:00.000Z');
});
afterEach(() => store.close());

/** A claimed HD job of ann's, by its row id. */
async function running(publicId: string): Promise<number> {
  await queue.enqueue(
    { publicId, ownerId: ann, kind: 'hd', params: HD_PARAMS, maxAttempts: 3 },
    tick(),
  );
  const job = await queue.claim('hd', tick());
  if (!job) throw new Error('nothing to claim');
  return job.id;
}

const notice = async (publicId: string) =>
  (await queue.findByPublicId(ann, 'hd', publicId))?.notice;

describe('a waiting notice', () => {
  it('is not carried into the next claim of the same job', async () => {
    const id = await running('a');
    await queue.noteWaiting(id, WAITING);
    // Put back by a hand other than the queue's (a store copy requeues a running row as it is).
    await store.db.updateTable('jobs').set({ status: 'queued' }).where('id', '=', id).execute();
    expect(await notice('a')).toBe(WAITING);
    expect((await queue.claim('hd', tick()))?.notice).toBeUndefined();
  });
});
