import type { AdminUser } from '@tessera/contract';
import { describe, expect, it } from 'vitest';
import { replaceUser } from './users-query';

const user = (username: string, role: AdminUser['role'] = 'member'): AdminUser => ({
  username,
  role,
  createdAt: '2026-11-01T10:00:00.000Z',
  lastSeenAt: null,
  disabledAt: null,
  retiredAt: null,
  ldImages: 0,
  hdImages: 0,
  storageBytes: 0,
  queuedJobs: 0,
  quotas: { storageBytes: null, queuedPreviews: null, queuedHd: null },
});

describe('the users list after a change', () => {
  it('puts the changed user in their own row and leaves the others, in order', () => {
    const users = [user('ana'), user('bea'), user('carl')];
    const changed = replaceUser(users, user('bea', 'admin'));
    expect(changed.map((row) => [row.username, row.role])).toEqual([
      ['ana', 'member'],
      ['bea', 'admin'],
      ['carl', 'member'],
    ]);
  });
});
