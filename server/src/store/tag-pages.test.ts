import { describe, expect, it } from 'vitest';
import { TagPageCache } from './tag-pages.js';

const page = (name: string) => ({ tags: [{ name }], total: 1 });

describe('the kept tag pages (issue 28, part 1)', () => {
  it('gives a page back only at the version it was read at', () => {
    const cache = new TagPageCache<{ name: string }>();
    const kept = cache.set(1, 1, 10, 7, page('Stone'));
    expect(cache.get(1, 1, 10, 7)).toBe(kept);
    expect(cache.get(1, 1, 10, 8)).toBeUndefined();
    expect(cache.get(1, 2, 10, 7)).toBeUndefined();
    expect(cache.get(1, 1, 20, 7)).toBeUndefined();
    expect(cache.get(2, 1, 10, 7)).toBeUndefined();
  });

  it('lets the least recently read page go past its bound', () => {
    const cache = new TagPageCache<{ name: string }>(2);
    cache.set(1, 1, 10, 0, page('a'));
    cache.set(2, 1, 10, 0, page('b'));
    cache.get(1, 1, 10, 0);
    cache.set(3, 1, 10, 0, page('c'));
    expect(cache.size).toBe(2);
    expect(cache.get(2, 1, 10, 0)).toBeUndefined();
    expect(cache.get(1, 1, 10, 0)?.tags).toEqual([{ name: 'a' }]);
    expect(cache.get(3, 1, 10, 0)?.tags).toEqual([{ name: 'c' }]);
  });

  it('keeps pages no one can change, down to each tag', () => {
    const kept = new TagPageCache<{ name: string }>().set(1, 1, 10, 0, page('a'));
    expect(() => ((kept.tags[0] as { name: string }).name = 'b')).toThrow(TypeError);
    expect(() => ((kept as { total: number }).total = 2)).toThrow(TypeError);
  });
});
