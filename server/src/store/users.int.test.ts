import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { freshDatabase, type TestDatabase } from '../testing/database.js';
import {
  createCredentialChangeRepository,
  type CredentialChangeRepository,
} from './credential-changes.js';
import { createSessionRepository, type SessionRepository } from './sessions.js';
import { createUserRepository, type UserRepository } from './users.js';

// The users and credential_changes tables on a real database (the integration tier:
// npm run test:int).

let store: TestDatabase;
let users: UserRepository;
let sessions: SessionRepository;
let changes: CredentialChangeRepository;

beforeEach(async () => {
  store = await freshDatabase();
  users = createUserRepository(store.db);
  sessions = createSessionRepository(store.db);
  changes = createCredentialChangeRepository(store.db);
});
afterEach(() => store.close());

const tomorrow = () => new Date(Date.now() + 86_400_000);
const changedNames = async () => (await changes.since(0)).map((c) => c.username);

describe('users', () => {
  it('creates a user with an id and finds them by name', async () => {
    const ann = await users.create('ann', 'hash-1');
    expect(ann).toEqual({
      id: expect.any(Number) as number,
      username: 'ann',
      passwordHash: 'hash-1',
      createdAt: expect.any(String) as string,
      role: 'member',
      disabledAt: null,
      retiredAt: null,
      lastSeenAt: null,
    });
    expect(await users.findByUsername('ann')).toEqual(ann);
    expect(await users.findByUsername('nobody')).toBeUndefined();
  });

  it('refuses a second user of the same name, the first kept', async () => {
    await users.create('ann', 'hash-1');
    await expect(users.create('ann', 'hash-2')).rejects.toThrow();
    expect(await users.findByUsername('ann')).toMatchObject({ passwordHash: 'hash-1' });
    expect(await users.count()).toBe(1);
  });

  it('lists users by name and counts them', async () => {
    for (const name of ['cy', 'ann', 'bob']) await users.create(name, 'h');
    expect((await users.list()).map((u) => u.username)).toEqual(['ann', 'bob', 'cy']);
    expect(await users.count()).toBe(3);
  });

  it("a new password ends that user's sessions only, and is told to every server", async () => {
    const ann = await users.create('ann', 'old');
    const bob = await users.create('bob', 'h');
    await sessions.create('ann-token', ann.id, tomorrow());
    await sessions.create('bob-token', bob.id, tomorrow());
    expect(await users.updatePasswordHash('ann', 'new')).toBe(true);
    expect(await users.findByUsername('ann')).toMatchObject({ passwordHash: 'new' });
    expect(await sessions.findLive('ann-token', new Date())).toBeUndefined();
    expect(await sessions.findLive('bob-token', new Date())).toBeDefined();
    expect(await changedNames()).toEqual(['ann']);
  });

  it('a new password for nobody changes nothing and tells nothing', async () => {
    expect(await users.updatePasswordHash('nobody', 'new')).toBe(false);
    expect(await changes.latest()).toBe(0);
  });

  it('removing a user ends their sessions and is told to every server', async () => {
    const ann = await users.create('ann', 'h');
    await sessions.create('ann-token', ann.id, tomorrow());
    expect(await users.remove('ann')).toBe('done');
    expect(await users.findByUsername('ann')).toBeUndefined();
    expect(await sessions.findLive('ann-token', new Date())).toBeUndefined();
    expect(await changedNames()).toEqual(['ann']);
    expect(await users.remove('ann')).toBe('unknown');
    expect(await changedNames()).toEqual(['ann']);
  });
});

describe('credential changes', () => {
  it('are numbered in order; a server asks for those after the last it saw', async () => {
    expect(await changes.latest()).toBe(0);
    for (const name of ['ann', 'bob', 'cy']) await users.create(name, 'h');
    await users.updatePasswordHash('ann', 'x');
    await users.remove('bob');
    await users.updatePasswordHash('cy', 'y');
    const all = await changes.since(0);
    expect(all.map((c) => c.username)).toEqual(['ann', 'bob', 'cy']);
    expect(await changes.latest()).toBe(all[2]?.seq);
    expect((await changes.since(all[0]?.seq ?? 0)).map((c) => c.username)).toEqual(['bob', 'cy']);
    expect(all[0]?.changedAt).toBeInstanceOf(Date);
  });

  it('old ones are forgotten, newer ones kept', async () => {
    await users.create('ann', 'h');
    await users.updatePasswordHash('ann', 'x');
    await changes.removeBefore(new Date(Date.now() - 60_000));
    expect(await changedNames()).toEqual(['ann']);
    await changes.removeBefore(new Date(Date.now() + 60_000));
    expect(await changedNames()).toEqual([]);
  });
});
