import { describe, expect, it } from 'vitest';
import type { Owner } from '../owner.js';
import { OwnerCache } from './owner-cache.js';

/** The accounts a lookup reads, and how many lookups were made. */
function directory(initial: Record<string, number>) {
  const ids = new Map(Object.entries(initial));
  const looked: string[] = [];
  const lookUp = (username: string): Promise<Owner | undefined> => {
    looked.push(username);
    const id = ids.get(username);
    return Promise.resolve(id === undefined ? undefined : { id, username });
  };
  return { ids, looked, lookUp };
}

describe('OwnerCache (issue 28: a lookup per command, no longer)', () => {
  it('looks an owner up once for all of their commands', async () => {
    const accounts = directory({ mia: 3 });
    const cache = new OwnerCache(accounts.lookUp);
    expect(await cache.owner('mia')).toEqual({ id: 3, username: 'mia' });
    expect(await cache.owner('mia')).toEqual({ id: 3, username: 'mia' });
    expect(accounts.looked).toEqual(['mia']);
  });

  it('never keeps a miss: a user created since counts at their first command', async () => {
    const accounts = directory({});
    const cache = new OwnerCache(accounts.lookUp);
    expect(await cache.owner('noa')).toBeUndefined();
    accounts.ids.set('noa', 7);
    expect(await cache.owner('noa')).toEqual({ id: 7, username: 'noa' });
  });

  it('looks a forgotten owner up again (disabled, or removed and made anew)', async () => {
    const accounts = directory({ mia: 3 });
    const cache = new OwnerCache(accounts.lookUp);
    await cache.owner('mia');
    accounts.ids.set('mia', 9);
    cache.forget('mia');
    expect(await cache.owner('mia')).toEqual({ id: 9, username: 'mia' });
    accounts.ids.delete('mia');
    cache.forget('mia');
    expect(await cache.owner('mia')).toBeUndefined();
  });

  it('does not keep what a lookup read before a change it was overtaken by', async () => {
    const accounts = directory({ mia: 3 });
    let release = (): void => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const cache = new OwnerCache(async (username) => {
      const before = await accounts.lookUp(username);
      await gate;
      return before;
    });
    const early = cache.owner('mia');
    // Disabled while the lookup was on its way: what it read is already old.
    accounts.ids.delete('mia');
    cache.forget('mia');
    release();
    expect(await early).toEqual({ id: 3, username: 'mia' });
    expect(await cache.owner('mia')).toBeUndefined();
  });
});
