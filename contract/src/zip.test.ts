import { describe, expect, it } from 'vitest';
import { withToken, ZIP_MAX_FILES, ZIP_ROUTES, zipDownloadRequestSchema } from './zip.js';

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

  it('fills a token into a route path, encoded', () => {
    expect(withToken(ZIP_ROUTES.file, 'abc_-9')).toBe('/api/images/zip/abc_-9');
    expect(withToken(ZIP_ROUTES.progress, 'a/b')).toBe('/api/query/zip-download/a%2Fb');
  });
});
