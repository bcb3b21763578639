import { describe, expect, it } from 'vitest';
import { ZIP_MAX_FILES, zipDownloadRequestSchema, zipEntryName, zipEntryNames } from './zip.js';

describe('the ZIP download shapes', () => {
  it('takes 1 to ZIP_MAX_FILES file names of one gallery, never a path', () => {
    const ok = (body: unknown) => zipDownloadRequestSchema.safeParse(body).success;
    expect(ok({ kind: 'ld', files: ['a.png'] })).toBe(true);
    expect(ok({ kind: 'hd', files: Array(ZIP_MAX_FILES).fill('a.png') })).toBe(true);
    expect(ok({ kind: 'hd', files: Array(ZIP_MAX_FILES + 1).fill('a.png') })).toBe(false);
    expect(ok({ kind: 'ld', files: [] })).toBe(false);
    expect(ok({ kind: 'input', files: ['a.png'] })).toBe(false);
    for (const trick of ['../a.png', 'a/b.png', 'a\\b.png', '.a.png', '..', 'a\u0000.png']) {
      expect(ok({ kind: 'ld', files: [trick] })).toBe(false);
    }
  });
});

describe("the names of a ZIP's entries (issue 25, part 4)", () => {
  const face = (f: number, seriesId = 'tiles-a1b2c3') => ({ seriesId, face: f, faces: 12 });

  it("names the faces of a series by face, in their series' folder; a single image as before", () => {
    expect(zipEntryName('tiles-a1b2c3-f1.png', face(1))).toBe('tiles-a1b2c3/face-01.png');
    expect(zipEntryName('tiles-a1b2c3-f12.png', face(12))).toBe('tiles-a1b2c3/face-12.png');
    expect(zipEntryName('tiles-a1b2c3-f3_60x120.jpg', face(3))).toBe(
      'tiles-a1b2c3/face-03_60x120.jpg',
    );
    expect(zipEntryName('tiles-a1b2c3.png', undefined)).toBe('tiles-a1b2c3.png');
  });

  it("keeps a face's file name when it is not its series' own", () => {
    expect(zipEntryName('copied.png', face(2))).toBe('tiles-a1b2c3/face-02-copied.png');
    // Face 1's prefix is not face 12's name.
    expect(zipEntryName('tiles-a1b2c3-f12.png', face(1))).toBe(
      'tiles-a1b2c3/face-01-tiles-a1b2c3-f12.png',
    );
  });

  it('never makes a path out of a series id', () => {
    for (const trick of ['..', '../up', 'a/b', '.hidden', '']) {
      expect(zipEntryName('x-f1.png', face(1, trick))).toBe('x-f1.png');
    }
  });

  it('gives no two entries one name', () => {
    const names = zipEntryNames([
      { filename: 'tiles-a1b2c3-f1-x.png', series: face(1) },
      { filename: 'x.png', series: face(1) },
      { filename: 'tiles-a1b2c3-f2.png', series: face(2) },
      { filename: 'single.png', series: undefined },
    ]);
    expect(names).toEqual([
      'tiles-a1b2c3/face-01-x.png',
      'x.png',
      'tiles-a1b2c3/face-02.png',
      'single.png',
    ]);
  });
});
