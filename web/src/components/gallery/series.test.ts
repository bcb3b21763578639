import { seriesMetadata } from '@tessera/contract';
import type { LdImage } from '@tessera/contract';
import { describe, expect, it } from 'vitest';
import { facesOfSeries, groupSeries, seriesHue } from './series';

const single = (filename: string): LdImage => ({ filename, thumbnail: '', metadata: {}, tags: [] });
const face = (seriesId: string, n: number, faces: number): LdImage => ({
  filename: `${seriesId}-f${n}.png`,
  thumbnail: '',
  metadata: seriesMetadata({ seriesId, face: n, faces }),
  tags: [],
});
const names = (images: readonly LdImage[]) => images.map((image) => image.filename);

describe('series in a gallery (issue 25)', () => {
  it('keeps a list without series as it is: the same array', () => {
    const list = [single('b.png'), single('a.png')];
    expect(groupSeries(list)).toBe(list);
  });

  it("puts a series' faces together, face 1 first, where its first face stands", () => {
    // As a name sort has it: "-f10" before "-f2", and a single image between two series' faces.
    const list = [
      single('new.png'),
      face('s1', 1, 10),
      face('s1', 10, 10),
      face('s2', 2, 2),
      single('mid.png'),
      face('s1', 2, 10),
      face('s2', 1, 2),
    ];
    expect(names(groupSeries(list))).toEqual([
      'new.png',
      's1-f1.png',
      's1-f2.png',
      's1-f10.png',
      's2-f1.png',
      's2-f2.png',
      'mid.png',
    ]);
  });

  it("finds a series' faces in face order, and nothing of another series", () => {
    const list = [face('s1', 3, 3), face('s2', 1, 2), face('s1', 1, 3), single('x.png')];
    expect(names(facesOfSeries(list, 's1'))).toEqual(['s1-f1.png', 's1-f3.png']);
    expect(facesOfSeries(list, 'nope')).toEqual([]);
  });

  it('gives each series a steady hue of its own', () => {
    expect(seriesHue('oak-1a2b')).toBe(seriesHue('oak-1a2b'));
    const hues = new Set(['oak-1a2b', 'oak-1a2c', 'oak-1a2d', 'slate-77'].map(seriesHue));
    expect(hues.size).toBe(4);
    for (const hue of hues) expect(hue >= 0 && hue < 360).toBe(true);
  });
});
