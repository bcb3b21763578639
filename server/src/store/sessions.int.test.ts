import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addOwner, freshDatabase, type TestDatabase } from '../testing/database.js';
import { createSessionRepository, type SessionRepository } from './sessions.js';

// The sessions table on a real database (the integration tier: npm run test:int).

let store: TestDatabase;
let sessions: SessionRepository;
let ann: number;
let bob: number;

const now = new Date('2026-05-01T12:00:00.000Z');
const later = (minutes: number) => new Date(now.getTime() + minutes * 60_000);

beforeEach(async () => {
  store = await freshDatabase();
  sessions = createSessionRepository(store.db);
  ann = await addOwner(store.db, 'ann');
  bob = await addOwner(store.db, 'bob');
});
afterEach(() => store.close());

describe('sessions', () => {
  it('finds a live session by its token hash, with its user', async () => {
    await sessions.create('hash-a', ann, later(30));
    expect(await sessions.findLive('hash-a', now)).toEqual({
      userId: ann,
      username: 'ann',
      expiresAt: later(30).toISOString(),
      role: 'member',
    });
    expect(await sessions.findLive('hash-unknown', now)).toBeUndefined();
  });

  it('no longer finds a session from the moment it expires', async () => {
    await sessions.create('hash-a', ann, later(30));
    expect(await sessions.findLive('hash-a', later(29))).toBeDefined();
    expect(await sessions.findLive('hash-a', later(30))).toBeUndefined();
  });

  it('ends one session, or all of one user', async () => {
    await sessions.create('ann-1', ann, later(30));
    await sessions.create('ann-2', ann, later(30));
    await sessions.create('bob-1', bob, later(30));
    await sessions.remove('ann-1');
    expect(await sessions.findLive('ann-1', now)).toBeUndefined();
    expect(await sessions.findLive('ann-2', now)).toBeDefined();
    await sessions.removeForUser(ann);
    expect(await sessions.findLive('ann-2', now)).toBeUndefined();
    expect(await sessions.findLive('bob-1', now)).toBeDefined();
  });

  it('deletes the expired sessions, counting them, and keeps the live ones', async () => {
    await sessions.create('old-1', ann, later(-10));
    await sessions.create('old-2', bob, later(0));
    await sessions.create('live', ann, later(10));
    expect(await sessions.removeExpired(now)).toBe(2);
    expect(await sessions.removeExpired(now)).toBe(0);
    expect(await sessions.findLive('live', now)).toBeDefined();
  });

  it('finds a live session by its messaging secret hash until it ends or expires (issue 22, part 3)', async () => {
    await sessions.create('ann-1', ann, later(30), 'secret-a');
    await sessions.create('ann-2', ann, later(30));
    await sessions.create('bob-1', bob, later(30), 'secret-b');
    expect(await sessions.findLiveByMessagingSecret('secret-a', now)).toEqual({
      userId: ann,
      username: 'ann',
      expiresAt: later(30).toISOString(),
      role: 'member',
    });
    expect(await sessions.findLiveByMessagingSecret('secret-a', later(30))).toBeUndefined();
    expect(await sessions.findLiveByMessagingSecret('secret-x', now)).toBeUndefined();
    await sessions.remove('ann-1');
    expect(await sessions.findLiveByMessagingSecret('secret-a', now)).toBeUndefined();
    await sessions.removeForUser(bob);
    expect(await sessions.findLiveByMessagingSecret('secret-b', now)).toBeUndefined();
  });

  it('refuses a session of a user who does not exist', async () => {
    await expect(sessions.create('hash-x', 9999, later(30))).rejects.toThrow();
  });
});
