import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addOwner, freshDatabase, type TestDatabase } from '../testing/database.js';
import { createApiTokenRepository, type ApiTokenRepository } from './api-tokens.js';
import { createUserRepository } from './users.js';

// The api_tokens table on a real database (the integration tier: npm run test:int), SQLite and
// PostgreSQL alike.

let store: TestDatabase;
let tokens: ApiTokenRepository;
let ann: number;
let bob: number;

const now = new Date('2026-05-01T12:00:00.000Z');
const later = (minutes: number) => new Date(now.getTime() + minutes * 60_000);

beforeEach(async () => {
  store = await freshDatabase();
  tokens = createApiTokenRepository(store.db);
  ann = await addOwner(store.db, 'ann');
  bob = await addOwner(store.db, 'bob');
});
afterEach(() => store.close());

function make(userId: number, hash: string, expiresAt: Date | null = later(60)) {
  return tokens.create({
    userId,
    name: `token ${hash}`,
    scopes: ['generate', 'read'],
    tokenHash: hash,
    createdAt: now,
    expiresAt,
  });
}

describe('api tokens', () => {
  it('stores a token with its scopes in the contract order, and lists the owner’s newest first', async () => {
    const first = await make(ann, 'hash-1');
    expect(first).toEqual({
      id: first.id,
      name: 'token hash-1',
      scopes: ['read', 'generate'],
      createdAt: now.toISOString(),
      expiresAt: later(60).toISOString(),
      lastUsedAt: null,
    });
    const second = await make(ann, 'hash-2', null);
    await make(bob, 'hash-3');
    expect((await tokens.list(ann)).map((t) => t.id)).toEqual([second.id, first.id]);
    expect((await tokens.list(ann))[0]?.expiresAt).toBeNull();
    expect(await tokens.count(ann)).toBe(2);
    expect(await tokens.count(bob)).toBe(1);
  });

  it('finds a live token by its hash with its user, until it expires; a token without expiry lives on', async () => {
    const made = await make(ann, 'hash-1', later(30));
    await make(ann, 'hash-forever', null);
    expect(await tokens.findLive('hash-1', later(29))).toEqual({
      tokenId: made.id,
      tokenName: made.name,
      expiresAt: made.expiresAt,
      userId: ann,
      username: 'ann',
      role: 'member',
      scopes: ['read', 'generate'],
      lastUsedAt: null,
    });
    expect(await tokens.findLive('hash-1', later(30))).toBeUndefined();
    expect(await tokens.findLive('hash-forever', later(60 * 24 * 3650))).toBeDefined();
    expect(await tokens.findLive('hash-unknown', now)).toBeUndefined();
  });

  it('opens nothing for a disabled or retired user, and tells the user’s role now', async () => {
    await make(ann, 'hash-ann');
    await make(bob, 'hash-bob');
    const users = createUserRepository(store.db);
    expect(await users.change('bob', { role: 'admin' })).toBe('done');
    expect(await tokens.findLive('hash-bob', now)).toMatchObject({ role: 'admin' });
    expect(await users.change('ann', { disabledAt: now.toISOString() })).toBe('done');
    expect(await tokens.findLive('hash-ann', now)).toBeUndefined();
    expect(await users.change('ann', { disabledAt: null })).toBe('done');
    expect(await tokens.findLive('hash-ann', now)).toBeDefined();
    const retired = { retiredAt: now.toISOString(), passwordHash: 'unusable' };
    expect(await users.change('ann', retired)).toBe('done');
    expect(await tokens.findLive('hash-ann', now)).toBeUndefined();
  });

  it('writes "last used" at most once per interval', async () => {
    const made = await make(ann, 'hash-1');
    await tokens.touchLastUsed(made.id, now, 5 * 60_000);
    await tokens.touchLastUsed(made.id, later(4), 5 * 60_000);
    expect((await tokens.findLive('hash-1', later(4)))?.lastUsedAt).toBe(now.toISOString());
    await tokens.touchLastUsed(made.id, later(6), 5 * 60_000);
    expect((await tokens.findLive('hash-1', later(6)))?.lastUsedAt).toBe(later(6).toISOString());
  });

  it('revokes only the owner’s own token', async () => {
    const annToken = await make(ann, 'hash-ann');
    expect(await tokens.remove(bob, annToken.id)).toBeUndefined();
    expect(await tokens.findLive('hash-ann', now)).toBeDefined();
    expect(await tokens.remove(ann, annToken.id)).toMatchObject({ id: annToken.id });
    expect(await tokens.findLive('hash-ann', now)).toBeUndefined();
    expect(await tokens.remove(ann, annToken.id)).toBeUndefined();
  });

  it('goes with its user', async () => {
    await make(ann, 'hash-ann');
    await store.db.deleteFrom('users').where('id', '=', ann).execute();
    expect(await tokens.count(ann)).toBe(0);
  });
});
