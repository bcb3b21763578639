import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addOwner, freshDatabase, type TestDatabase } from '../testing/database.js';
import { preparedQuery } from './prepared.js';

// A query compiled once, run with each call's values (the integration tier: npm run test:int).

let store: TestDatabase;

beforeEach(async () => {
  store = await freshDatabase();
  await addOwner(store.db, 'ann');
  await addOwner(store.db, 'bob');
});
afterEach(() => store.close());

describe('preparedQuery', () => {
  it("runs the query with each call's own values", async () => {
    const { db } = store;
    const byName = preparedQuery(db, 1, (username: string) =>
      db.selectFrom('users').select('username').where('username', '=', username),
    );
    expect(await byName('ann')).toEqual([{ username: 'ann' }]);
    expect(await byName('bob')).toEqual([{ username: 'bob' }]);
    expect(await byName('carl')).toEqual([]);
  });

  it('puts an argument used twice in both places, beside values of its own', async () => {
    const { db } = store;
    const either = preparedQuery(db, 2, (first: string, limit: number) =>
      db
        .selectFrom('users')
        .select('username')
        .where((eb) =>
          eb.or([
            eb('username', '=', first),
            eb('username', '=', first),
            eb('username', '=', 'bob'),
          ]),
        )
        .orderBy('username')
        .limit(limit),
    );
    expect(await either('ann', 5)).toEqual([{ username: 'ann' }, { username: 'bob' }]);
    expect(await either('carl', 1)).toEqual([{ username: 'bob' }]);
  });

  it('refuses a query that leaves an argument out of its parameters', async () => {
    const { db } = store;
    const careless = preparedQuery(db, 1, (_username: string) =>
      db.selectFrom('users').select('username'),
    );
    await expect(careless('ann')).rejects.toThrow(/argument 0 is not a parameter/);
  });
});
