import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LocalFileStore } from '../files/local-file-store.js';
import { newLeaseHolder } from '../jobs/lease.js';
import type { Db } from '../store/database.js';
import { createHdRetentionRepository } from '../store/hd-retention.js';
import { addOwner, freshDatabase, type TestDatabase } from '../testing/database.js';
import { FakeTimers } from '../testing/fake-timers.js';
import { silentLogger, tempDir } from '../testing/fixtures.js';
import { DAY_MS, placeHdImage } from '../testing/retention.js';
import { HdRetentionService, type RetentionPlan } from './hd-retention.js';
import { HdRetentionSchedule, RETENTION_CHECK_MS } from './hd-retention-schedule.js';

// The daily run of the HD retention policy in two processes sharing one database (each its own
// connection pool and lease holder, as two servers on one PostgreSQL): on a fake clock moved on a
// day at a time, the policy runs once a day, never twice, whichever process's check comes first.

const START = new Date('2026-06-01T00:30:00.000Z');

describe('HdRetentionSchedule across processes', () => {
  let store: TestDatabase;
  let other: Db;
  let folder: ReturnType<typeof tempDir>;
  beforeEach(async () => {
    store = await freshDatabase();
    other = await store.openAnother();
    folder = tempDir();
  });
  afterEach(async () => {
    await other.destroy();
    await store.close();
    folder.remove();
  });

  it('runs once a day across two processes and removes each file once', async () => {
    const clock = new FakeTimers(START);
    const files = new LocalFileStore(path.join(folder.dir, 'files'), path.join(folder.dir, 'tmp'));
    const alice = { id: await addOwner(store.db, 'alice'), username: 'alice' };
    const runs: { process: string; day: string; removed: string[] }[] = [];
    const processes = [store.db, other].map((db, index) => {
      const name = `process-${index + 1}`;
      const service = new HdRetentionService(
        createHdRetentionRepository(db),
        files,
        30,
        silentLogger,
      );
      const run = service.run.bind(service);
      service.run = async (now: Date): Promise<RetentionPlan> => {
        const result = await run(now);
        runs.push({
          process: name,
          day: now.toISOString().slice(0, 10),
          removed: result.items.map((i) => i.filename),
        });
        return result;
      };
      return new HdRetentionSchedule(service, clock, newLeaseHolder(), silentLogger);
    });
    // 31 days old now: today's run removes it. 30 days minus one hour: tomorrow's.
    await placeHdImage(
      store.db,
      files,
      alice,
      'today.png',
      new Date(START.getTime() - 31 * DAY_MS),
    );
    await placeHdImage(
      store.db,
      files,
      alice,
      'tomorrow.png',
      new Date(START.getTime() - 30 * DAY_MS + RETENTION_CHECK_MS),
    );

    for (const schedule of processes) schedule.start();
    await clock.advance(0);
    expect(runs.map((r) => [r.day, r.removed])).toEqual([['2026-06-01', ['today.png']]]);

    // A day of hourly checks in both processes: one run, on the new day.
    await clock.advance(DAY_MS);
    expect(runs.map((r) => [r.day, r.removed])).toEqual([
      ['2026-06-01', ['today.png']],
      ['2026-06-02', ['tomorrow.png']],
    ]);
    await clock.advance(DAY_MS);
    expect(runs.map((r) => r.day)).toEqual(['2026-06-01', '2026-06-02', '2026-06-03']);
    const rows = await store.db
      .selectFrom('retention_runs')
      .select(['day', 'removed'])
      .orderBy('day')
      .execute();
    expect(rows.map((r) => [r.day, Number(r.removed)])).toEqual([
      ['2026-06-01', 1],
      ['2026-06-02', 1],
      ['2026-06-03', 0],
    ]);
    for (const schedule of processes) await schedule.stop();
    // Stopped: no more checks, however far the clock goes.
    await clock.advance(2 * DAY_MS);
    expect(runs).toHaveLength(3);
  });
});
