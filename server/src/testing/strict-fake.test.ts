import { describe, expect, it, vi } from 'vitest';
import { strictFake } from './strict-fake.js';

interface Shelf {
  count(): number;
  put(item: string): Promise<void>;
}

describe('strictFake', () => {
  it('answers with the methods it was given', async () => {
    const put = vi.fn(() => Promise.resolve());
    const shelf = strictFake<Shelf>('shelf', { count: () => 3, put });
    expect(shelf.count()).toBe(3);
    await shelf.put('cup');
    expect(put).toHaveBeenCalledWith('cup');
  });

  it('throws on a call of any other method, naming the fake and the method', () => {
    const shelf = strictFake<Shelf>('shelf', { count: () => 3 });
    expect(() => shelf.put('cup')).toThrow('unexpected call: shelf.put');
  });

  it('makes an async caller reject, so a service cannot swallow the call unseen', async () => {
    const shelf = strictFake<Shelf>('shelf');
    const store = async () => {
      await shelf.put('cup');
    };
    await expect(store()).rejects.toThrow('unexpected call: shelf.put');
  });

  it('is not a promise: awaiting it gives the fake itself', async () => {
    const shelf = strictFake<Shelf>('shelf', { count: () => 1 });
    const awaited = await Promise.resolve(shelf);
    expect(awaited.count()).toBe(1);
  });
});
