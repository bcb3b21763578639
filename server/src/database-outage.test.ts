import type { HdStatusMessage } from '@tessera/contract';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startJobCluster, type JobCluster } from './testing/job-cluster.js';
import { mosquittoAvailable } from './testing/mosquitto.js';
import { ownPostgresMissing, startOwnPostgres, type OwnPostgres } from './testing/own-postgres.js';

/**
 * Issue 23, part 10: a PostgreSQL outage of about 15 s under running jobs. A web process and two
 * workers on a PostgreSQL of the test's own, which it SIGKILLs while each worker holds a
 * finished run whose outcome is not saved yet (the fault hold `job-finished-unsaved`), and starts
 * again once the workers have tried for ~15 s. Before the fix, the failed save was an unhandled
 * rejection that killed every worker, and the jobs stayed claimed.
 */

if (ownPostgresMissing && process.env.CI === 'true') throw new Error(ownPostgresMissing);
if (ownPostgresMissing) console.warn(`*** database outage test SKIPPED: ${ownPostgresMissing} ***`);

const HOLD = 'job-finished-unsaved';
/** The backoff tops out at 2 s: a try at 0.2, 0.6, 1.4, 3, 5, 7 … s; the 11th comes at ~15 s. */
const RETRY_MAX_MS = 2000;
const TRIES_IN_15_S = 11;
const LEASE_MS = 120_000;

describe.skipIf(!!ownPostgresMissing || !mosquittoAvailable)(
  '[#23] job runners through a PostgreSQL outage',
  () => {
    let database: OwnPostgres;
    let cluster: JobCluster;

    beforeAll(async () => {
      database = await startOwnPostgres();
      cluster = await startJobCluster({
        databaseUrl: database.url,
        workers: 2,
        env: {
          TESSERA_FAULT_HOLD: HOLD,
          JOB_STORE_RETRY_MAX_MS: String(RETRY_MAX_MS),
          // Far longer than the outage: a lease that expires hands its job to another worker (a
          // documented second run, not this test's subject).
          JOB_LEASE_MS: String(LEASE_MS),
        },
      });
    }, 120_000);

    afterAll(async () => {
      const codes = await cluster?.stop();
      await database?.remove();
      // Each process was still running, and stops cleanly.
      expect(codes).toEqual([0, 0, 0]);
    }, 60_000);

    it('each job finishes once after the database returns; no process exits; nothing stays claimed', async () => {
      const ids = await cluster.orderHd(4);
      // Each worker has run its first job to the end and holds it before saving that.
      for (const worker of cluster.workers) {
        await worker.output.waitFor(new RegExp(`fault hold: ${HOLD}`), 60_000);
      }

      await database.kill();
      for (const worker of cluster.workers) worker.child.kill('SIGUSR2');
      for (const worker of cluster.workers) {
        await worker.output.waitFor(/job store unreachable \(saving a finished job\)/);
      }
      // The database stays down while the workers try for about 15 s.
      await cluster.workers[0]?.output.waitFor(
        new RegExp(`"failures":${TRIES_IN_15_S}\\b`),
        60_000,
      );
      await database.start();

      const byId = (id: string) => cluster.statuses.filter((status) => status.id === id);
      const ended = (id: string) =>
        byId(id).some((status) => status.status === 'finished' || status.status === 'error');
      await cluster.waitForStatuses('the end of every job', () => ids.every(ended) || undefined);

      for (const id of ids) {
        const seen = byId(id);
        expect(seen.map((status) => status.status)).not.toContain('error');
        expect(seen.filter((status) => status.status === 'finished')).toHaveLength(1);
        // What the user sees only moves on: never back to a lower percent, never queued again.
        expect(isMonotonic(seen)).toBe(true);
      }
      for (const proc of [cluster.web, ...cluster.workers]) {
        expect(proc.child.exitCode).toBeNull();
        expect(proc.output.text()).not.toMatch(/unhandled promise rejection|uncaught exception/);
      }
      for (const worker of cluster.workers) {
        expect(worker.output.text()).toMatch(/job store answers again/);
      }

      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      try {
        const { rows } = await client.query<{
          public_id: string;
          status: string;
          attempts: number;
        }>('select public_id, status, attempts from jobs order by id');
        // Every job ran once (no second attempt) and ended finished: none is left claimed.
        expect(rows).toEqual(ids.map((id) => ({ public_id: id, status: 'finished', attempts: 1 })));
      } finally {
        await client.end();
      }
    }, 180_000);
  },
);

const ORDER = { queued: 0, in_progress: 1, finished: 2, error: 2 } as Record<string, number>;

function isMonotonic(all: HdStatusMessage[]): boolean {
  // The web process says "queued" when the order is taken and a worker "in_progress" when it
  // claims the job: two publishers, whose messages the broker may deliver in either order. Until
  // the job shows progress, a 0 % "queued" is that order-time message, not a requeue.
  const firstProgress = all.findIndex((status) => status.percent > 0);
  const statuses = all.filter(
    (status, i) => !(status.status === 'queued' && status.percent === 0 && i < firstProgress),
  );
  return statuses.every((status, i) => {
    const before = statuses[i - 1];
    if (!before) return true;
    const rank = (s: HdStatusMessage) => ORDER[s.status] ?? 0;
    return (
      rank(status) > rank(before) ||
      (rank(status) === rank(before) && status.percent >= before.percent)
    );
  });
}
