import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { JobKind } from '../jobs/job.js';
import { addOwner, freshDatabase, type TestDatabase } from '../testing/database.js';
import { createJobQueue, type StoredJobQueue } from './jobs.js';

// The job queue on the jobs table of a real database (the integration tier: npm run test:int),
// SQLite and PostgreSQL: what only the table can show. What every queue does is the contract
// (jobs/queue-contract.suite.ts, run here by job-queue-contract.int.test.ts). More on moves and
// pauses: jobs/queue-control.test.ts; several processes sharing the queue on PostgreSQL:
// jobs/shared-queue.test.ts.

let store: TestDatabase;
let queue: StoredJobQueue;
let ann: number;

beforeEach(async () => {
  store = await freshDatabase();
  queue = createJobQueue(store.db, { lease: { holder: 'process-a', ms: 30_000 } });
  ann = await addOwner(store.db, 'ann');
});
afterEach(() => store.close());

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
