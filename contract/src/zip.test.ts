import { describe, expect, it } from 'vitest';
import { ZIP_MAX_FILES, zipDownloadRequestSchema } from './zip.js';

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
