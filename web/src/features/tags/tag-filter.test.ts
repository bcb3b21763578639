// @vitest-environment jsdom
import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { filterImagesByTags, useTagFilter } from './tag-filter';

const images = [
  { filename: 'a.png', tags: ['red'] },
  { filename: 'b.png', tags: ['blue'] },
  { filename: 'c.png', tags: ['red', 'blue'] },
  { filename: 'd.png', tags: [] },
];
const names = (list: readonly { filename: string }[]) => list.map((image) => image.filename);

describe('filtering images by tags', () => {
  it('[T4] shows every image when no tag is enabled, as the same list', () => {
    expect(filterImagesByTags(images, new Set())).toBe(images);
  });

  it('[T4] one enabled tag keeps the images that carry it', () => {
    expect(names(filterImagesByTags(images, new Set(['red'])))).toEqual(['a.png', 'c.png']);
  });

  it('[T4] two enabled tags keep images with any of them', () => {
    expect(names(filterImagesByTags(images, new Set(['red', 'blue'])))).toEqual([
      'a.png',
      'b.png',
      'c.png',
    ]);
  });

  it('[T4] a tag no image carries keeps none', () => {
    expect(filterImagesByTags(images, new Set(['green']))).toEqual([]);
  });
});

describe('the tag filter state', () => {
  const tags = [
    { id: 'red', name: 'Red', color: '#f00' },
    { id: 'blue', name: 'Blue', color: '#00f' },
  ];

  it('[T3] clicking a tag toggles it on and off', () => {
    const { result } = renderHook(() => useTagFilter(tags));
    act(() => result.current.toggle('red'));
    expect([...result.current.enabled]).toEqual(['red']);
    act(() => result.current.toggle('blue'));
    expect([...result.current.enabled]).toEqual(['red', 'blue']);
    act(() => result.current.toggle('red'));
    expect([...result.current.enabled]).toEqual(['blue']);
  });

  it('[T7] a deleted tag no longer filters', () => {
    const { result, rerender } = renderHook(({ list }) => useTagFilter(list), {
      initialProps: { list: tags },
    });
    act(() => result.current.toggle('red'));
    rerender({ list: tags.filter((tag) => tag.id !== 'red') });
    expect(result.current.enabled.size).toBe(0);
  });
});
