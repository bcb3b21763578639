import { describe, expect, it } from 'vitest';
import { AUDIT_ACTIONS } from './admin.js';
import {
  ADMIN_SCREEN_PATHS,
  ADMIN_SCREENS_ROOT,
  ADMIN_TEXTS,
  formatAdminDate,
  formatStorage,
} from './admin-texts.js';
import { API_PREFIX, SCREEN_PATHS } from './routes.js';

describe('the admin screens', () => {
  it('show storage in human units, es-ES', () => {
    expect(formatStorage(0)).toBe('0 B');
    expect(formatStorage(1023)).toBe('1023 B');
    expect(formatStorage(1024)).toBe('1 KB');
    expect(formatStorage(1536 * 1024)).toBe('1,5 MB');
    expect(formatStorage(150 * 1024 * 1024)).toBe('150 MB');
    expect(formatStorage(12.34 * 1024 ** 3)).toBe('12,3 GB');
  });

  it('name the counts of a removal', () => {
    expect(ADMIN_TEXTS.removeCounts(3, 1, 5 * 1024 * 1024)).toBe(
      '3 imágenes LD, 1 imágenes HD, 5 MB',
    );
  });

  it('show dates as the galleries do (es-ES)', () => {
    expect(formatAdminDate('2026-11-27T09:05:00.000Z', 'UTC')).toBe('27/11/2026, 9:05:00');
  });

  it('have a text for every audit action', () => {
    for (const action of AUDIT_ACTIONS) expect(ADMIN_TEXTS.actions[action]).not.toBe('');
  });

  it('live outside the API and apart from the spec screens', () => {
    const spec: string[] = Object.values(SCREEN_PATHS);
    for (const path of Object.values(ADMIN_SCREEN_PATHS)) {
      expect(path.startsWith(API_PREFIX)).toBe(false);
      expect(path.startsWith(`${ADMIN_SCREENS_ROOT}/`)).toBe(true);
      expect(spec).not.toContain(path);
    }
  });
});
