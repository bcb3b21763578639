import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LocalFileStore } from '../files/local-file-store.js';
import { AuditLog, AuditRetention } from '../services/audit.js';
import { ownerFilesIn } from '../services/owner-files.js';
import { UserService } from '../services/users.js';
import { freshDatabase, type TestDatabase } from '../testing/database.js';
import { silentLogger, tempDir } from '../testing/fixtures.js';
import { createAuditRepository, type AuditRepository } from './audit.js';
import { createImageRepository } from './images.js';
import { createUserUsageReader } from './user-usage.js';
import { createUserRepository, type UserRepository } from './users.js';

// The audit trail, roles and the admin's view of users on a real database (SQLite and
// PostgreSQL: the integration tier, npm run test:int).

let store: TestDatabase;
let audit: AuditRepository;
let users: UserRepository;

beforeEach(async () => {
  store = await freshDatabase();
  audit = createAuditRepository(store.db);
  users = createUserRepository(store.db);
});
afterEach(() => store.close());

const DAY = 86_400_000;
const at = (iso: string) => new Date(iso);

describe('the audit trail', () => {
  it('lists newest first with each filter, and pages by id', async () => {
    await audit.record({
      at: at('2026-01-01T10:00:00Z'),
      actor: null,
      action: 'sign-in-failed',
      target: 'ann',
      address: '10.0.0.1',
      details: { reason: 'invalid' },
    });
    await audit.record({
      at: at('2026-01-02T10:00:00Z'),
      actor: 'ann',
      action: 'sign-in',
      target: 'ann',
    });
    await audit.record({
      at: at('2026-01-03T10:00:00Z'),
      actor: 'ann',
      action: 'user-created',
      target: 'bob',
      details: { role: 'member' },
    });
    await audit.record({
      at: at('2026-01-04T10:00:00Z'),
      actor: 'cli',
      action: 'password-reset',
      target: 'bob',
    });

    const all = await audit.list({ limit: 10 });
    expect(all.entries.map((e) => e.action)).toEqual([
      'password-reset',
      'user-created',
      'sign-in',
      'sign-in-failed',
    ]);
    expect(all.nextBefore).toBeUndefined();
    expect(all.entries[3]).toEqual({
      id: expect.any(Number) as number,
      at: '2026-01-01T10:00:00.000Z',
      actor: null,
      action: 'sign-in-failed',
      target: 'ann',
      details: { reason: 'invalid' },
      address: '10.0.0.1',
    });

    expect((await audit.list({ limit: 10, actor: 'ann' })).entries).toHaveLength(2);
    expect((await audit.list({ limit: 10, target: 'bob' })).entries).toHaveLength(2);
    expect((await audit.list({ limit: 10, action: 'sign-in' })).entries).toHaveLength(1);
    const window = await audit.list({
      limit: 10,
      from: '2026-01-02T10:00:00Z',
      to: '2026-01-03T12:00:00+02:00',
    });
    expect(window.entries.map((e) => e.action)).toEqual(['user-created', 'sign-in']);

    const first = await audit.list({ limit: 3 });
    expect(first.entries).toHaveLength(3);
    expect(first.nextBefore).toBe(first.entries[2]?.id);
    const second = await audit.list({ limit: 3, before: first.nextBefore ?? 0 });
    expect(second.entries.map((e) => e.action)).toEqual(['sign-in-failed']);
    expect(second.nextBefore).toBeUndefined();
  });

  it('is pruned past its retention on a controlled clock, at start and every day', async () => {
    let now = at('2026-06-01T00:00:00Z');
    const log = new AuditLog(audit, silentLogger, () => now);
    await log.note({ actor: { name: 'ann' }, action: 'sign-in' }); // 2026-06-01
    now = at('2026-06-20T00:00:00Z');
    await log.note({ actor: { name: 'ann' }, action: 'sign-in' }); // 2026-06-20

    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const retention = new AuditRetention(log, 30, silentLogger, DAY);
      now = at('2026-07-01T00:00:01Z'); // the first is 30 days and a second old
      await retention.start();
      expect((await audit.list({ limit: 10 })).entries).toHaveLength(1);

      now = at('2026-07-20T00:00:00Z'); // the second is exactly 30 days old: kept
      await vi.advanceTimersByTimeAsync(DAY);
      expect((await audit.list({ limit: 10 })).entries).toHaveLength(1);

      now = at('2026-07-21T00:00:00Z');
      await vi.advanceTimersByTimeAsync(DAY);
      await vi.waitFor(async () =>
        expect((await audit.list({ limit: 10 })).entries).toHaveLength(0),
      );
      retention.stop();
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('roles and account changes', () => {
  it('never takes away the last enabled admin, whatever the change', async () => {
    await users.create('root', 'h', 'admin');
    await users.create('mia', 'h');
    expect(await users.change('root', { role: 'member' })).toBe('last-admin');
    expect(await users.change('root', { disabledAt: new Date().toISOString() })).toBe('last-admin');
    expect(
      await users.change('root', { retiredAt: new Date().toISOString(), passwordHash: 'x' }),
    ).toBe('last-admin');
    expect(await users.remove('root')).toBe('last-admin');
    expect(await users.change('nobody', { role: 'admin' })).toBe('unknown');

    expect(await users.change('mia', { role: 'admin' })).toBe('done');
    expect(await users.change('mia', { disabledAt: new Date().toISOString() })).toBe('done');
    // A disabled admin is no admin to fall back on.
    expect(await users.change('root', { role: 'member' })).toBe('last-admin');
    expect(await users.change('mia', { disabledAt: null })).toBe('done');
    expect(await users.change('root', { role: 'member' })).toBe('done');
    expect(await users.findByUsername('root')).toMatchObject({ role: 'member', disabledAt: null });
  });

  it('notes "last seen" at most once per interval', async () => {
    const ann = await users.create('ann', 'h');
    await users.touchLastSeen(ann.id, at('2026-01-01T10:00:00Z'), 60_000);
    await users.touchLastSeen(ann.id, at('2026-01-01T10:00:30Z'), 60_000);
    expect((await users.findByUsername('ann'))?.lastSeenAt).toBe('2026-01-01T10:00:00.000Z');
    await users.touchLastSeen(ann.id, at('2026-01-01T10:01:01Z'), 60_000);
    expect((await users.findByUsername('ann'))?.lastSeenAt).toBe('2026-01-01T10:01:01.000Z');
  });
});

describe("the admin's view of users", () => {
  it("counts images and storage per user, and deletes a removed user's rows and files", async () => {
    const files = tempDir('tessera-owner-files-');
    try {
      const fileStore = new LocalFileStore(
        path.join(files.dir, 'files'),
        path.join(files.dir, 'tmp'),
      );
      const service = new UserService(
        users,
        undefined,
        undefined,
        undefined,
        ownerFilesIn(fileStore),
        createUserUsageReader(store.db),
      );
      await service.add('root', 'root-password');
      await service.add('ann', 'ann-password');
      const ann = await users.findByUsername('ann');
      const images = createImageRepository(store.db);
      const base = {
        sourceImageId: null,
        width: 64,
        height: 64,
        metadata: {},
        createdAt: '2026-01-01T00:00:00.000Z',
      };
      const ld = await images.insert({
        ...base,
        ownerId: ann?.id ?? 0,
        kind: 'ld',
        filename: 'a.png',
        bytes: 1000,
      });
      await images.insert({
        ...base,
        ownerId: ann?.id ?? 0,
        kind: 'ld',
        filename: 'b.png',
        bytes: 2000,
      });
      await images.insert({
        ...base,
        ownerId: ann?.id ?? 0,
        kind: 'hd',
        filename: 'a-hd.png',
        bytes: 30_000,
        sourceImageId: ld.id,
      });
      await fileStore.write('ann', 'ld', 'a.png', Buffer.from('a'));
      await fileStore.write('ann', 'ld', 'b.png', Buffer.from('b'));
      await fileStore.write('ann', 'hd', 'a-hd.png', Buffer.from('c'));
      await fileStore.write('root', 'ld', 'mine.png', Buffer.from('r'));

      expect(await service.view('ann')).toMatchObject({
        ldImages: 2,
        hdImages: 1,
        storageBytes: 33_000,
        queuedJobs: 0,
      });
      expect(await service.view('root')).toMatchObject({
        role: 'admin',
        ldImages: 0,
        storageBytes: 0,
      });

      expect(await service.remove('ann', { name: 'root' }, 'delete')).toEqual({
        username: 'ann',
        images: 'delete',
        ldImages: 2,
        hdImages: 1,
        filesRemoved: 3,
      });
      expect(await fileStore.list('ann', 'ld')).toEqual([]);
      expect(await fileStore.list('root', 'ld')).toHaveLength(1);
      expect((await service.overview()).map((u) => u.username)).toEqual(['root']);
    } finally {
      files.remove();
    }
  });
});
