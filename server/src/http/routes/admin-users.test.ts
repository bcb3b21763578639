import {
  ADMIN_API_PREFIX,
  API_ROUTES,
  adminUsageSchema,
  adminUsersResponseSchema,
  auditPageSchema,
  errorText,
  routeUrl,
} from '@tessera/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditLog } from '../../services/audit.js';
import { AuthService } from '../../services/auth.js';
import { HdRetentionService } from '../../services/hd-retention.js';
import { createHdRetentionRepository } from '../../store/hd-retention.js';
import { MemoryLoginGuard } from '../../services/login-guard.js';
import path from 'node:path';
import { LocalFileStore } from '../../files/local-file-store.js';
import { ImageTakeOver } from '../../services/take-over.js';
import { UsageService } from '../../services/usage.js';
import { QuotaService } from '../../services/quotas.js';
import { UserService } from '../../services/users.js';
import { createTakeOverRepository } from '../../store/take-over.js';
import { createAuditRepository } from '../../store/audit.js';
import { createDailyImagesRepository } from '../../store/daily-images.js';
import { createImageRepository } from '../../store/images.js';
import { createJobCountsRepository } from '../../store/job-counts.js';
import { createQuotaRepository } from '../../store/quotas.js';
import { createSessionRepository } from '../../store/sessions.js';
import { createUserUsageReader } from '../../store/user-usage.js';
import { createUserRepository } from '../../store/users.js';
import {
  createTestStore,
  passwordOf,
  silentLogger,
  type TestStore,
} from '../../testing/fixtures.js';
import { httpTestDependencies } from '../../testing/http-app.js';
import { buildHttpApp } from '../app.js';
import { SESSION_COOKIE } from '../session.js';

const CONFIGURED_QUOTAS = { storageBytes: null, queuedPreviews: 20, queuedHd: 50 };

// The admin API on a real SQLite database with the real user service, audit trail and sessions.

let store: TestStore;
let app: FastifyInstance;
let users: UserService;
/** The usage charts' "today" (a fixed clock: the range does not move during the test). */
const USAGE_NOW = new Date('2026-05-20T12:00:00.000Z');
/** Every route the app registered under /api/admin, as Fastify's onRoute hook told them. */
const adminRoutes: { method: string; url: string }[] = [];

beforeAll(async () => {
  store = await createTestStore();
  const userRepo = createUserRepository(store.db);
  const audit = new AuditLog(createAuditRepository(store.db), silentLogger);
  users = new UserService(
    userRepo,
    undefined,
    undefined,
    audit,
    undefined,
    createUserUsageReader(store.db),
    new ImageTakeOver(
      createTakeOverRepository(store.db),
      new LocalFileStore(path.join(store.dataDir, 'files')),
    ),
  );
  // root is the first user: the admin. mia and max are members.
  for (const name of ['root', 'mia', 'max']) await users.add(name, passwordOf(name));
  const auth = new AuthService(
    userRepo,
    createSessionRepository(store.db),
    new MemoryLoginGuard(),
    undefined,
    undefined,
    true,
    audit,
  );
  app = await buildHttpApp(
    httpTestDependencies(store, {
      auth,
      admin: {
        users,
        audit,
        retention: new HdRetentionService(
          createHdRetentionRepository(store.db),
          new LocalFileStore(`${store.dataDir}/files`, `${store.dataDir}/tmp`),
          30,
          silentLogger,
          audit,
        ),
        usage: new UsageService({
          images: createDailyImagesRepository(store.db),
          jobs: createJobCountsRepository(store.db),
          now: () => USAGE_NOW,
        }),
        quotas: new QuotaService(createQuotaRepository(store.db), CONFIGURED_QUOTAS, audit),
      },
      onRoute: (route) => {
        if (!route.url.startsWith(ADMIN_API_PREFIX)) return;
        const methods = Array.isArray(route.method) ? route.method : [route.method];
        for (const method of methods)
          if (method !== 'HEAD') adminRoutes.push({ method, url: route.url });
      },
    }),
  );
});

afterAll(async () => {
  await app.close();
  await store.close();
});

async function login(username: string, password = passwordOf(username), address = '10.0.0.7') {
  return app.inject({
    method: 'POST',
    url: API_ROUTES.login,
    payload: { username, password },
    remoteAddress: address,
  });
}

async function cookieOf(username: string, password = passwordOf(username)): Promise<string> {
  const res = await login(username, password);
  expect(res.statusCode).toBe(200);
  return `${SESSION_COOKIE}=${res.cookies.find((c) => c.name === SESSION_COOKIE)?.value ?? ''}`;
}

/** A registered route's URL with every parameter filled in. */
const concrete = (url: string) => url.replace(/:[A-Za-z]+/g, 'mia');

function call(method: string, url: string, cookie?: string, payload?: object) {
  return app.inject({
    method: method as 'GET' | 'POST',
    url,
    ...(cookie && { headers: { cookie } }),
    ...(payload && { payload }),
  });
}

const admin = (method: string, url: string, payload?: object) =>
  cookieOf('root').then((cookie) => call(method, url, cookie, payload));

describe('the admin guard, on every admin route the app registers', () => {
  it('finds the admin routes in the code: every one of the contract, none other', () => {
    const contract = Object.values(API_ROUTES).filter((url) => url.startsWith(ADMIN_API_PREFIX));
    expect(new Set(adminRoutes.map((r) => r.url))).toEqual(new Set(contract));
    expect(adminRoutes.length).toBeGreaterThanOrEqual(8);
  });

  it('answers 401 without a session and 403 to a member, before any change', async () => {
    const member = await cookieOf('mia');
    for (const { method, url } of adminRoutes) {
      const body = method === 'GET' ? undefined : { images: 'delete', role: 'admin' };
      const anonymous = await call(method, concrete(url), undefined, body);
      expect({ method, url, status: anonymous.statusCode }).toEqual({ method, url, status: 401 });
      const refused = await call(method, concrete(url), member, body);
      expect({ method, url, status: refused.statusCode }).toEqual({ method, url, status: 403 });
      expect(refused.json()).toEqual({ error: errorText('ADMIN_ONLY') });
    }
    // Nothing happened to mia, whose name every route was given.
    expect(await users.view('mia')).toMatchObject({ role: 'member', disabledAt: null });
  });
});

describe('the admin API', () => {
  it('lists the users with their role, last sign-in and usage', async () => {
    const res = await admin('GET', API_ROUTES.adminUsers);
    expect(res.statusCode).toBe(200);
    const { users: listed } = adminUsersResponseSchema.parse(res.json());
    expect(listed.map((u) => [u.username, u.role])).toEqual([
      ['max', 'member'],
      ['mia', 'member'],
      ['root', 'admin'],
    ]);
    expect(listed.find((u) => u.username === 'root')?.lastSeenAt).not.toBeNull();
    expect(listed[0]).toMatchObject({ ldImages: 0, hdImages: 0, storageBytes: 0, queuedJobs: 0 });
  });

  it('answers usage at a glance: images per day and user, the queue, the engine', async () => {
    // A user of this test alone: the other tests count mia's and max's images.
    const ula = await createUserRepository(store.db).create('ula', 'hash-of-ula');
    await createImageRepository(store.db).insert({
      ownerId: ula.id,
      kind: 'ld',
      filename: 'usage.png',
      sourceImageId: null,
      width: 64,
      height: 64,
      bytes: 100,
      metadata: {},
      createdAt: '2026-05-19T23:30:00.000Z',
    });
    const res = await admin('GET', API_ROUTES.adminUsage);
    expect(res.statusCode).toBe(200);
    const usage = adminUsageSchema.parse(res.json());
    expect(usage.days.at(-1)?.day).toBe('2026-05-20');
    expect(usage.days.find((d) => d.day === '2026-05-19')).toMatchObject({
      ldImages: 1,
      hdImages: 0,
      byUser: [1],
    });
    expect(usage.topUsers).toEqual(['ula']);
    expect(usage.queue.every((q) => q.queued === 0 && q.running === 0)).toBe(true);
    expect(usage.engines).toEqual([{ engine: 'builtin', label: null, state: 'up' }]);
  });

  it('creates a user with a generated password, answered once, that signs in', async () => {
    const res = await admin('POST', API_ROUTES.adminUsers, { username: 'nora' });
    expect(res.statusCode).toBe(201);
    const { generatedPassword } = res.json<{ generatedPassword: string }>();
    expect(generatedPassword.length).toBeGreaterThanOrEqual(8);
    expect((await login('nora', generatedPassword)).statusCode).toBe(200);
    const again = await admin('POST', API_ROUTES.adminUsers, {
      username: 'nora',
      password: 'x'.repeat(9),
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ error: errorText('USER_EXISTS', 'nora') });
  });

  it('resets a password: the old sessions end, the new password signs in', async () => {
    const session = await cookieOf('max');
    const res = await admin('POST', routeUrl(API_ROUTES.adminUserPassword, { username: 'max' }), {
      password: 'max-new-password',
    });
    expect(res.json()).toEqual({ username: 'max' });
    expect((await call('GET', API_ROUTES.session, session)).statusCode).toBe(401);
    expect((await login('max')).statusCode).toBe(401);
    expect((await login('max', 'max-new-password')).statusCode).toBe(200);
  });

  it('disables a user (no sign-in, sessions ended, data kept) and enables them again', async () => {
    const session = await cookieOf('mia');
    const url = routeUrl(API_ROUTES.adminUserDisable, { username: 'mia' });
    const res = await admin('POST', url);
    expect(res.json()).toMatchObject({ user: { username: 'mia', disabledAt: expect.any(String) } });
    expect((await call('GET', API_ROUTES.session, session)).statusCode).toBe(401);
    const refused = await login('mia');
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toEqual({ error: errorText('ACCOUNT_DISABLED') });
    // A wrong password says nothing of the account.
    expect((await login('mia', 'wrong-password')).json()).toEqual({
      error: errorText('INVALID_CREDENTIALS'),
    });
    await admin('POST', routeUrl(API_ROUTES.adminUserEnable, { username: 'mia' }));
    expect((await login('mia')).statusCode).toBe(200);
  });

  it('never leaves the studio without an enabled admin', async () => {
    for (const [route, body] of [
      [API_ROUTES.adminUserRole, { role: 'member' }],
      [API_ROUTES.adminUserDisable, undefined],
      [API_ROUTES.adminUserRemove, { images: 'keep' }],
    ] as const) {
      const res = await admin('POST', routeUrl(route, { username: 'root' }), body);
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({ error: errorText('LAST_ADMIN', 'root') });
    }
    // With a second admin, the first may step down.
    await admin('POST', routeUrl(API_ROUTES.adminUserRole, { username: 'max' }), { role: 'admin' });
    const res = await admin('POST', routeUrl(API_ROUTES.adminUserRole, { username: 'root' }), {
      role: 'member',
    });
    expect(res.json()).toMatchObject({ user: { username: 'root', role: 'member' } });
    expect((await admin('GET', API_ROUTES.adminUsers)).statusCode).toBe(403);
    await users.setRole('root', 'admin');
  });

  it('removes a user keeping their account retired, or deleting it, with the counts', async () => {
    await users.add('kept', passwordOf('kept'));
    const kept = await admin('POST', routeUrl(API_ROUTES.adminUserRemove, { username: 'kept' }), {
      images: 'keep',
    });
    expect(kept.json()).toEqual({
      username: 'kept',
      images: 'keep',
      ldImages: 0,
      hdImages: 0,
      filesRemoved: 0,
    });
    expect((await login('kept')).statusCode).toBe(401);
    const enable = await admin('POST', routeUrl(API_ROUTES.adminUserEnable, { username: 'kept' }));
    expect(enable.json()).toEqual({ error: errorText('USER_RETIRED', 'kept') });
    expect(await users.view('kept')).toMatchObject({
      retiredAt: expect.any(String) as string,
      disabledAt: expect.any(String) as string,
    });

    await users.add('gone', passwordOf('gone'));
    const gone = await admin('POST', routeUrl(API_ROUTES.adminUserRemove, { username: 'gone' }), {
      images: 'delete',
    });
    expect(gone.json()).toMatchObject({ username: 'gone', images: 'delete' });
    expect(await users.owner('gone')).toBeUndefined();
    const unknown = await admin(
      'POST',
      routeUrl(API_ROUTES.adminUserRemove, { username: 'gone' }),
      {
        images: 'delete',
      },
    );
    expect(unknown.statusCode).toBe(404);
    const invalid = await admin(
      'POST',
      routeUrl(API_ROUTES.adminUserRemove, { username: 'mia' }),
      {},
    );
    expect(invalid.statusCode).toBe(400);
  });

  it("takes over a retired user's images for the signed-in admin, and only a retired user's", async () => {
    await users.add('left', passwordOf('left'));
    const take = (username: string) =>
      admin('POST', routeUrl(API_ROUTES.adminUserTakeOver, { username }));
    const active = await take('left');
    expect(active.statusCode).toBe(409);
    expect(active.json()).toEqual({ error: errorText('USER_NOT_RETIRED', 'left') });

    await users.remove('left', undefined, 'keep');
    const taken = await take('left');
    expect(taken.json()).toEqual({
      username: 'left',
      to: 'root',
      ldImages: 0,
      hdImages: 0,
      renamed: 0,
      files: 0,
    });
    expect((await users.overview()).map((u) => u.username)).not.toContain('left');
    expect((await take('left')).statusCode).toBe(404);
    const audit = auditPageSchema.parse(
      (await admin('GET', `${API_ROUTES.adminAudit}?action=images-taken-over&target=left`)).json(),
    );
    expect(audit.entries[0]).toMatchObject({ actor: 'root', details: { to: 'root' } });
  });

  it('lists the audit trail newest first, filtered and paged', async () => {
    await login('mia', 'wrong-password', '10.9.9.9');
    const failed = await admin('GET', `${API_ROUTES.adminAudit}?action=sign-in-failed&target=mia`);
    const page = auditPageSchema.parse(failed.json());
    expect(page.entries[0]).toMatchObject({
      action: 'sign-in-failed',
      actor: null,
      target: 'mia',
      address: '10.9.9.9',
      details: { reason: 'invalid', channel: 'http' },
    });

    const byRoot = auditPageSchema.parse(
      (await admin('GET', `${API_ROUTES.adminAudit}?actor=root&limit=2`)).json(),
    );
    expect(byRoot.entries).toHaveLength(2);
    expect(byRoot.nextBefore).toBe(byRoot.entries[1]?.id);
    const older = auditPageSchema.parse(
      (
        await admin(
          'GET',
          `${API_ROUTES.adminAudit}?actor=root&limit=2&before=${byRoot.nextBefore}`,
        )
      ).json(),
    );
    expect(older.entries[0]?.id).toBeLessThan(byRoot.entries[1]?.id ?? 0);

    const actions = new Set(
      auditPageSchema
        .parse((await admin('GET', `${API_ROUTES.adminAudit}?limit=200`)).json())
        .entries.map((e) => e.action),
    );
    for (const action of [
      'sign-in',
      'sign-in-failed',
      'user-created',
      'user-removed',
      'user-disabled',
      'user-enabled',
      'role-changed',
      'password-reset',
    ])
      expect(actions).toContain(action);

    const future = await admin('GET', `${API_ROUTES.adminAudit}?from=2999-01-01T00:00:00Z`);
    expect(future.json()).toEqual({ entries: [] });
    expect((await admin('GET', `${API_ROUTES.adminAudit}?action=nonsense`)).statusCode).toBe(400);
  });
});

describe('the session, for the web', () => {
  it("tells the signed-in user's role, so only admins see the admin screens", async () => {
    const answer = (name: string) =>
      cookieOf(name).then((cookie) => call('GET', API_ROUTES.session, cookie));
    expect((await answer('root')).json()).toEqual({ username: 'root', role: 'admin' });
    await users.add('lou', passwordOf('lou'));
    expect((await answer('lou')).json()).toEqual({ username: 'lou', role: 'member' });
  });

  it('lists a user removed keeping their images as retired', async () => {
    await users.add('kit', passwordOf('kit'));
    expect(
      (
        await admin('POST', routeUrl(API_ROUTES.adminUserRemove, { username: 'kit' }), {
          images: 'keep',
        })
      ).statusCode,
    ).toBe(200);
    const listed = adminUsersResponseSchema.parse(
      (await admin('GET', API_ROUTES.adminUsers)).json(),
    );
    const kit = listed.users.find((user) => user.username === 'kit');
    expect(kit?.retiredAt).toEqual(expect.any(String));
    expect(listed.users.find((user) => user.username === 'root')?.retiredAt).toBeNull();
  });
});
