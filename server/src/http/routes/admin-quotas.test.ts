import {
  API_ROUTES,
  adminUserResponseSchema,
  adminUsersResponseSchema,
  auditPageSchema,
  errorText,
  quotaDefaultsResponseSchema,
  routeUrl,
  storageUsageSchema,
} from '@tessera/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditLog } from '../../services/audit.js';
import { AuthService } from '../../services/auth.js';
import { MemoryLoginGuard } from '../../services/login-guard.js';
import { QuotaService } from '../../services/quotas.js';
import { UserService } from '../../services/users.js';
import { createAuditRepository } from '../../store/audit.js';
import { createQuotaRepository } from '../../store/quotas.js';
import { createSessionRepository } from '../../store/sessions.js';
import { createUserUsageReader } from '../../store/user-usage.js';
import { createUserRepository } from '../../store/users.js';
import { createTestStore, passwordOf, type TestStore } from '../../testing/fixtures.js';
import { silentLogger } from '../../testing/fixtures.js';
import { httpTestDependencies, sessionCookie } from '../../testing/http-app.js';
import { buildHttpApp } from '../app.js';

// The quotas of the admin API (issue 29, part 3) and a member's own usage, on a real SQLite
// database with the real services. The guard of every admin route: admin-users.test.ts.

const CONFIGURED = { storageBytes: null, queuedPreviews: 20, queuedHd: 50 };

let store: TestStore;
let app: FastifyInstance;

beforeAll(async () => {
  store = await createTestStore();
  const userRepo = createUserRepository(store.db);
  const audit = new AuditLog(createAuditRepository(store.db), silentLogger);
  const users = new UserService(
    userRepo,
    undefined,
    undefined,
    audit,
    undefined,
    createUserUsageReader(store.db),
  );
  for (const name of ['root', 'mia']) await users.add(name, passwordOf(name));
  const auth = new AuthService(
    userRepo,
    createSessionRepository(store.db),
    new MemoryLoginGuard(),
    undefined,
    undefined,
    true,
    audit,
  );
  const quotas = new QuotaService(createQuotaRepository(store.db), CONFIGURED, audit);
  app = await buildHttpApp(
    httpTestDependencies(store, {
      auth,
      admin: { ...httpTestDependencies(store).admin, users, audit, quotas },
    }),
  );
});

afterAll(async () => {
  await app.close();
  await store.close();
});

const cookieOf = (username: string) => sessionCookie(app, username);

async function as(username: string, method: 'GET' | 'PUT', url: string, payload?: object) {
  return app.inject({
    method,
    url,
    headers: { cookie: await cookieOf(username) },
    ...(payload && { payload }),
  });
}

describe('the default quotas', () => {
  it("answers the configuration's until an admin sets them; the change is audited", async () => {
    const before = await as('root', 'GET', API_ROUTES.adminQuotaDefaults);
    expect(quotaDefaultsResponseSchema.parse(before.json())).toEqual({ defaults: CONFIGURED });

    const next = { storageBytes: 5_000_000_000, queuedPreviews: 10, queuedHd: 30 };
    const put = await as('root', 'PUT', API_ROUTES.adminQuotaDefaults, next);
    expect(put.statusCode).toBe(200);
    expect(put.json()).toEqual({ defaults: next });
    expect((await as('root', 'GET', API_ROUTES.adminQuotaDefaults)).json()).toEqual({
      defaults: next,
    });

    const audit = auditPageSchema.parse(
      (
        await as('root', 'GET', `${API_ROUTES.adminAudit}?action=quota-changed&target=default`)
      ).json(),
    );
    expect(audit.entries[0]).toMatchObject({
      actor: 'root',
      target: 'default',
      details: { from: CONFIGURED, to: next },
    });
  });

  it('refuses a value out of range with the contract text, and changes nothing', async () => {
    const before = (await as('root', 'GET', API_ROUTES.adminQuotaDefaults)).json();
    for (const bad of [
      { storageBytes: -1, queuedPreviews: 10, queuedHd: 30 },
      { storageBytes: null, queuedPreviews: 0, queuedHd: 30 },
      { storageBytes: null, queuedPreviews: 10, queuedHd: 1.5 },
      { storageBytes: null, queuedPreviews: 10 },
    ]) {
      const res = await as('root', 'PUT', API_ROUTES.adminQuotaDefaults, bad);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: errorText('QUOTA_INVALID') });
    }
    expect((await as('root', 'GET', API_ROUTES.adminQuotaDefaults)).json()).toEqual(before);
  });
});

describe("a user's quotas", () => {
  const mias = routeUrl(API_ROUTES.adminUserQuotas, { username: 'mia' });

  it('sets them, lists them with the user, and audits the old and new values', async () => {
    const next = { storageBytes: 500_000_000, queuedPreviews: null, queuedHd: 3 };
    const res = await as('root', 'PUT', mias, next);
    expect(res.statusCode).toBe(200);
    expect(adminUserResponseSchema.parse(res.json()).user.quotas).toEqual(next);
    const listed = adminUsersResponseSchema.parse(
      (await as('root', 'GET', API_ROUTES.adminUsers)).json(),
    );
    expect(listed.users.find((u) => u.username === 'mia')?.quotas).toEqual(next);

    const audit = auditPageSchema.parse(
      (await as('root', 'GET', `${API_ROUTES.adminAudit}?action=quota-changed&target=mia`)).json(),
    );
    expect(audit.entries[0]).toMatchObject({
      actor: 'root',
      details: {
        from: { storageBytes: null, queuedPreviews: null, queuedHd: null },
        to: next,
      },
    });
  });

  it('answers 404 for an unknown user and 400 for a bad value', async () => {
    const none = { storageBytes: null, queuedPreviews: null, queuedHd: null };
    const unknown = await as(
      'root',
      'PUT',
      routeUrl(API_ROUTES.adminUserQuotas, { username: 'zed' }),
      none,
    );
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ error: errorText('USER_UNKNOWN', 'zed') });
    const bad = await as('root', 'PUT', mias, { ...none, queuedHd: 'many' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ error: errorText('QUOTA_INVALID') });
  });
});

describe("a member's own storage", () => {
  it('answers their use and the quota that applies: their own, else the default', async () => {
    await as('root', 'PUT', routeUrl(API_ROUTES.adminUserQuotas, { username: 'mia' }), {
      storageBytes: 700,
      queuedPreviews: null,
      queuedHd: null,
    });
    const own = await as('mia', 'GET', API_ROUTES.storageUsage);
    expect(storageUsageSchema.parse(own.json())).toEqual({ usedBytes: 0, quotaBytes: 700 });
    // root follows the default set above.
    const root = await as('root', 'GET', API_ROUTES.storageUsage);
    expect(root.json()).toEqual({ usedBytes: 0, quotaBytes: 5_000_000_000 });
    expect((await app.inject({ method: 'GET', url: API_ROUTES.storageUsage })).statusCode).toBe(
      401,
    );
  });
});
