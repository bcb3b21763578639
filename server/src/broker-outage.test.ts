import { API_ROUTES, hdJobsResponseSchema } from '@tessera/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from './store/database.js';
import { signIn } from './testing/http.js';
import { CLUSTER_USER, startJobCluster, type JobCluster } from './testing/job-cluster.js';
import { mosquittoAvailable } from './testing/mosquitto.js';

/**
 * Issue 23 ("Done when"): the external Mosquitto SIGKILLed under running jobs and started again.
 * A web process and two workers; each worker holds a finished run before saving it (the fault
 * hold `job-finished-unsaved`) while the broker dies. One is let go while the broker is down, the
 * other after everyone reconnected: each job finishes once, and the user learns the end of each,
 * over MQTT once reconnected and in the HD queue the browser reads.
 */

const HOLD = 'job-finished-unsaved';
/** The runner's line once a job's row says it finished (LOG_LEVEL info). */
const JOB_FINISHED = /"msg":"job finished"/;

describe.skipIf(!mosquittoAvailable)('[#23] jobs through a Mosquitto crash', () => {
  let cluster: JobCluster;
  let db: Db;

  beforeAll(async () => {
    cluster = await startJobCluster({
      workers: 2,
      // Info: the runner's "job finished" lines are the events the jobs' ends are awaited on.
      env: { TESSERA_FAULT_HOLD: HOLD, LOG_LEVEL: 'info' },
    });
    db = await openDatabase({ dataDir: cluster.dataDir });
  }, 120_000);

  afterAll(async () => {
    await db?.destroy();
    const codes = await cluster?.stop();
    expect(codes).toEqual([0, 0, 0]);
  }, 60_000);

  const finishedJobs = async () =>
    (await db.selectFrom('jobs').select('status').execute()).filter(
      (job) => job.status === 'finished',
    ).length;

  /** Waits until the workers have printed `count` "job finished" lines in all. */
  async function finishedLines(count: number): Promise<void> {
    const printed = () =>
      cluster.workers.reduce(
        (sum, worker) =>
          sum + (worker.output.text().match(new RegExp(JOB_FINISHED, 'g'))?.length ?? 0),
        0,
      );
    for (;;) {
      // Asked for before the count, so a line printed meanwhile is not missed.
      const next = Promise.race(cluster.workers.map((w) => w.output.printedNext(JOB_FINISHED)));
      if (printed() >= count) return;
      await next;
    }
  }

  it('finishes each job once; the user gets every final status after the reconnect', async () => {
    const ids = await cluster.orderHd(3);
    const [first, second] = cluster.workers;
    if (!first || !second) throw new Error('two workers expected');
    await first.output.waitFor(new RegExp(`fault hold: ${HOLD}`), 60_000);
    await second.output.waitFor(new RegExp(`fault hold: ${HOLD}`), 60_000);

    await cluster.broker.kill();
    // One job ends while the broker is down: its status has nowhere to go now.
    first.child.kill('SIGUSR2');
    await first.output.waitFor(/messaging connection to the broker lost/);
    await first.output.waitFor(JOB_FINISHED, 30_000);
    expect(await finishedJobs()).toBe(1);

    const reconnected = new Promise((resolve) => cluster.client.once('connect', resolve));
    await cluster.broker.start();
    await reconnected;
    for (const proc of [cluster.web, first, second]) {
      await proc.output.waitFor(/messaging connection to the broker back/, 30_000);
    }
    // The other ends after everyone is back, and the third job runs after it.
    second.child.kill('SIGUSR2');

    const endOf = (id: string) =>
      cluster.statuses.filter(
        (s) => s.id === id && (s.status === 'finished' || s.status === 'error'),
      );
    // Bounded by the test's timeout.
    await finishedLines(3);
    expect(await finishedJobs()).toBe(3);
    // The jobs that ended after the reconnect told the user over MQTT, once each.
    await cluster.waitForStatuses(
      'the ends of two jobs',
      () => ids.filter((id) => endOf(id).length > 0).length >= 2 || undefined,
      30_000,
    );
    for (const id of ids) {
      expect(endOf(id).map((s) => s.status)).not.toContain('error');
      expect(endOf(id).length).toBeLessThanOrEqual(1);
    }

    // What the browser reads after a reconnect: every job finished.
    const cookie = await signIn(cluster.web.url, CLUSTER_USER);
    const res = await fetch(`${cluster.web.url}${API_ROUTES.hdJobs}`, { headers: { cookie } });
    const { jobs } = hdJobsResponseSchema.parse(await res.json());
    for (const id of ids) expect(jobs.find((job) => job.id === id)?.status).toBe('finished');

    const rows = await db.selectFrom('jobs').select(['public_id', 'status', 'attempts']).execute();
    expect(rows.map((row) => [row.status, row.attempts])).toEqual(ids.map(() => ['finished', 1]));
    for (const proc of [cluster.web, ...cluster.workers]) expect(proc.child.exitCode).toBeNull();
  }, 240_000);
});
