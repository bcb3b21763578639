import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { freshDatabase, type TestDatabase } from '../testing/database.js';
import type { Db } from './database.js';
import { createInstanceRegistry } from './instances.js';

/** The running processes' rows (instances), on a real database. */
describe('createInstanceRegistry', () => {
  let store: TestDatabase;
  let db: Db;
  beforeEach(async () => {
    store = await freshDatabase();
    db = store.db;
  });
  afterEach(async () => {
    await store.close();
  });

  it('lists the other instances that beat recently, not itself nor the silent ones', async () => {
    const registry = createInstanceRegistry(db);
    await registry.beat('web-a', 'web', 1000);
    await registry.beat('worker-1', 'worker', 5000);
    await registry.beat('web-b', 'web', 6000);

    expect(await registry.othersAlive('web-b', 2000)).toEqual(['worker-1']);
    // A beat renews the row: web-a is back among the living.
    await registry.beat('web-a', 'web', 7000);
    expect(await registry.othersAlive('web-b', 2000)).toEqual(['web-a', 'worker-1']);

    await registry.remove('worker-1');
    expect(await registry.othersAlive('web-b', 2000)).toEqual(['web-a']);
  });
});
