import path from 'node:path';
import {
  API_ROUTES,
  API_TOKEN_LAST_USED_EVERY_MS,
  API_TOKEN_PREFIX,
  apiTokensResponseSchema,
  auditPageSchema,
  createApiTokenResponseSchema,
  errorText,
  type ApiTokenScope,
} from '@tessera/contract';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalFileStore } from '../../files/local-file-store.js';
import { ApiTokenService } from '../../services/api-tokens.js';
import { AuditLog } from '../../services/audit.js';
import { createApiTokenRepository } from '../../store/api-tokens.js';
import { createAuditRepository } from '../../store/audit.js';
import {
  createTestStore,
  passwordOf,
  silentLogger,
  type TestStore,
} from '../../testing/fixtures.js';
import { httpTestDependencies } from '../../testing/http-app.js';
import { buildHttpApp } from '../app.js';
import { SESSION_COOKIE } from '../session.js';

// Personal API tokens (issue 30, part 1) through the whole HTTP app, on a real SQLite database:
// made with the cookie, used as Bearer tokens, refused where the contract's scopes say so.

let store: TestStore;
let app: FastifyInstance;
let audit: AuditLog;
/** The token service's clock: moved by the tests (expiry, last used), never the wall clock. */
let now = new Date('2026-06-01T09:00:00.000Z');
const cookies: Record<string, string> = {};

beforeAll(async () => {
  store = await createTestStore(['alice', 'bob']);
  const files = new LocalFileStore(path.join(store.dataDir, 'files'));
  await files.write('alice', 'ld', 'alices.png', Buffer.from('alice png'));
  await files.write('bob', 'ld', 'bobs.png', Buffer.from('bob png'));
  audit = new AuditLog(createAuditRepository(store.db), silentLogger);
  const apiTokens = new ApiTokenService(createApiTokenRepository(store.db), audit, () => now);
  app = await buildHttpApp(
    httpTestDependencies(store, {
      files,
      apiTokens,
      hdQueue: {
        list: (owner) => Promise.resolve({ jobs: [], paused: owner.username === 'nobody' }),
        cancel: () => Promise.reject(new Error('not planned')),
        moveToTop: () => Promise.reject(new Error('not planned')),
        pause: () => Promise.resolve(),
        resume: () => Promise.resolve(),
      },
    }),
  );
  for (const user of ['alice', 'bob']) {
    const res = await app.inject({
      method: 'POST',
      url: API_ROUTES.login,
      payload: { username: user, password: passwordOf(user) },
    });
    cookies[user] = res.cookies.find((c) => c.name === SESSION_COOKIE)?.value ?? '';
  }
});

afterAll(async () => {
  await app.close();
  await store.close();
});

function asUser(user: string, options: InjectOptions) {
  return app.inject({ ...options, cookies: { [SESSION_COOKIE]: cookies[user] ?? '' } });
}

function withToken(secret: string, options: InjectOptions) {
  return app.inject({
    ...options,
    headers: { ...options.headers, authorization: `Bearer ${secret}` },
  });
}

async function makeToken(
  user: string,
  scopes: ApiTokenScope[],
  expires: 30 | 90 | 365 | null = 30,
  name = `${user} script`,
) {
  const res = await asUser(user, {
    method: 'POST',
    url: API_ROUTES.createApiToken,
    payload: { name, scopes, expires_in_days: expires },
  });
  expect(res.statusCode).toBe(201);
  expect(res.headers['cache-control']).toBe('no-store');
  return createApiTokenResponseSchema.parse(res.json());
}

describe('managing tokens with the session cookie', () => {
  it('makes a token whose secret is shown once, lists it without the secret, and revokes it', async () => {
    const made = await makeToken('alice', ['read', 'generate'], 90, 'HD pipeline');
    expect(made.secret.startsWith(API_TOKEN_PREFIX)).toBe(true);
    // 256 random bits in base64url after the prefix.
    expect(made.secret.length).toBe(API_TOKEN_PREFIX.length + 43);
    expect(made.token).toMatchObject({
      name: 'HD pipeline',
      scopes: ['read', 'generate'],
      created_at: now.toISOString(),
      last_used_at: null,
      expires_at: new Date(now.getTime() + 90 * 86_400_000).toISOString(),
    });

    const listed = await asUser('alice', { method: 'GET', url: API_ROUTES.apiTokens });
    const { tokens } = apiTokensResponseSchema.parse(listed.json());
    expect(tokens.map((t) => t.id)).toContain(made.token.id);
    expect(listed.body).not.toContain(made.secret);
    // The database keeps its SHA-256 only.
    const rows = await store.db.selectFrom('api_tokens').selectAll().execute();
    expect(JSON.stringify(rows)).not.toContain(made.secret);

    // Bob can neither see nor revoke alice's token.
    const bobs = await asUser('bob', { method: 'GET', url: API_ROUTES.apiTokens });
    expect(apiTokensResponseSchema.parse(bobs.json()).tokens.map((t) => t.id)).not.toContain(
      made.token.id,
    );
    const bobRevokes = await asUser('bob', {
      method: 'POST',
      url: API_ROUTES.revokeApiToken,
      payload: { id: made.token.id },
    });
    expect(bobRevokes.statusCode).toBe(404);
    expect(bobRevokes.json()).toEqual({ error: errorText('API_TOKEN_UNKNOWN') });

    const revoked = await asUser('alice', {
      method: 'POST',
      url: API_ROUTES.revokeApiToken,
      payload: { id: made.token.id },
    });
    expect(revoked.statusCode).toBe(200);
    const after = await asUser('alice', { method: 'GET', url: API_ROUTES.apiTokens });
    expect(apiTokensResponseSchema.parse(after.json()).tokens.map((t) => t.id)).not.toContain(
      made.token.id,
    );

    const trail = auditPageSchema.parse(await audit.list({ target: 'alice' }));
    const actions = trail.entries.map((entry) => entry.action);
    expect(actions).toContain('api-token-created');
    expect(actions).toContain('api-token-revoked');
    expect(JSON.stringify(trail)).not.toContain(made.secret);
  });

  it('refuses a token without a scope, an expiry not offered, or no name, and makes nothing', async () => {
    const before = await store.db.selectFrom('api_tokens').selectAll().execute();
    for (const payload of [
      { name: 'x', scopes: [], expires_in_days: 30 },
      { name: 'x', scopes: ['read'], expires_in_days: 7 },
      { name: ' ', scopes: ['read'], expires_in_days: 30 },
      { name: 'x', scopes: ['admin'], expires_in_days: null },
    ]) {
      const res = await asUser('alice', {
        method: 'POST',
        url: API_ROUTES.createApiToken,
        payload,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: errorText('API_TOKEN_REQUEST_INVALID') });
    }
    expect(await store.db.selectFrom('api_tokens').selectAll().execute()).toEqual(before);
  });
});

describe('a Bearer token', () => {
  it('acts as its owner on a route its scope allows', async () => {
    const { secret } = await makeToken('alice', ['read']);
    const res = await withToken(secret, { method: 'GET', url: '/api/images/ld/alices.png' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('alice png');
  });

  it("never reaches another user's data", async () => {
    const { secret } = await makeToken('alice', ['read', 'generate', 'manage']);
    const res = await withToken(secret, { method: 'GET', url: '/api/images/ld/bobs.png' });
    expect(res.statusCode).toBe(404);
    // Bob's own token does.
    const bobs = await makeToken('bob', ['read']);
    const own = await withToken(bobs.secret, { method: 'GET', url: '/api/images/ld/bobs.png' });
    expect(own.statusCode).toBe(200);
  });

  it('wins over a cookie: the request is judged by the token alone', async () => {
    const { secret } = await makeToken('alice', ['read']);
    const res = await app.inject({
      method: 'GET',
      url: '/api/images/ld/bobs.png',
      cookies: { [SESSION_COOKIE]: cookies.bob ?? '' },
      headers: { authorization: `Bearer ${secret}` },
    });
    expect(res.statusCode).toBe(404);
    const bogus = await app.inject({
      method: 'GET',
      url: '/api/images/ld/bobs.png',
      cookies: { [SESSION_COOKIE]: cookies.bob ?? '' },
      headers: { authorization: 'Bearer tsr_not-a-token' },
    });
    expect(bogus.statusCode).toBe(401);
  });

  it('is refused with 403 where its scopes do not reach, naming the scope', async () => {
    const { secret } = await makeToken('alice', ['read']);
    const res = await withToken(secret, { method: 'POST', url: API_ROUTES.pauseHdQueue });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: errorText('API_TOKEN_SCOPE_MISSING', 'generate') });
    const generate = await makeToken('alice', ['generate']);
    const read = await withToken(generate.secret, { method: 'GET', url: API_ROUTES.hdJobs });
    expect(read.statusCode).toBe(403);
    expect(read.json()).toEqual({ error: errorText('API_TOKEN_SCOPE_MISSING', 'read') });
    const paused = await withToken(generate.secret, {
      method: 'POST',
      url: API_ROUTES.pauseHdQueue,
    });
    expect(paused.statusCode).toBe(200);
  });

  it('is refused on the cookie-only routes, whatever its scopes', async () => {
    const { secret } = await makeToken('alice', ['read', 'generate', 'manage']);
    const calls: InjectOptions[] = [
      { method: 'GET', url: API_ROUTES.session },
      { method: 'GET', url: API_ROUTES.apiTokens },
      {
        method: 'POST',
        url: API_ROUTES.createApiToken,
        payload: { name: 'more', scopes: ['read'], expires_in_days: null },
      },
      { method: 'POST', url: API_ROUTES.revokeApiToken, payload: { id: 1 } },
      { method: 'POST', url: API_ROUTES.logout },
      { method: 'POST', url: API_ROUTES.login, payload: { username: 'alice', password: 'x' } },
      { method: 'GET', url: API_ROUTES.adminUsers },
    ];
    for (const call of calls) {
      const res = await withToken(secret, call);
      expect(res.statusCode, `${call.method} ${call.url}`).toBe(403);
      expect(res.json()).toEqual({ error: errorText('API_TOKEN_NOT_ACCEPTED') });
    }
    // The logout refused did not end alice's session.
    const session = await asUser('alice', { method: 'GET', url: API_ROUTES.session });
    expect(session.statusCode).toBe(200);
  });

  it('gets 401 once revoked, and for an unknown or malformed token', async () => {
    const made = await makeToken('alice', ['read']);
    const url = '/api/images/ld/alices.png';
    expect((await withToken(made.secret, { method: 'GET', url })).statusCode).toBe(200);
    await asUser('alice', {
      method: 'POST',
      url: API_ROUTES.revokeApiToken,
      payload: { id: made.token.id },
    });
    for (const secret of [made.secret, 'tsr_unknown', 'not-even-prefixed', '']) {
      const res = await withToken(secret, { method: 'GET', url });
      expect(res.statusCode, secret).toBe(401);
      expect(res.json()).toEqual({ error: errorText('API_TOKEN_INVALID') });
    }
  });

  it('gets 401 from the moment it expires (a controlled clock)', async () => {
    const made = await makeToken('alice', ['read'], 30);
    const url = '/api/images/ld/alices.png';
    const start = now;
    try {
      now = new Date(start.getTime() + 30 * 86_400_000 - 1);
      expect((await withToken(made.secret, { method: 'GET', url })).statusCode).toBe(200);
      now = new Date(start.getTime() + 30 * 86_400_000);
      expect((await withToken(made.secret, { method: 'GET', url })).statusCode).toBe(401);
    } finally {
      now = start;
    }
  });

  it('notes when it was last used, at most every few minutes', async () => {
    const made = await makeToken('alice', ['read']);
    const lastUsed = async () =>
      apiTokensResponseSchema
        .parse((await asUser('alice', { method: 'GET', url: API_ROUTES.apiTokens })).json())
        .tokens.find((t) => t.id === made.token.id)?.last_used_at;
    const url = '/api/images/ld/alices.png';
    const start = now;
    try {
      await withToken(made.secret, { method: 'GET', url });
      expect(await lastUsed()).toBe(start.toISOString());
      now = new Date(start.getTime() + API_TOKEN_LAST_USED_EVERY_MS - 1000);
      await withToken(made.secret, { method: 'GET', url });
      expect(await lastUsed()).toBe(start.toISOString());
      now = new Date(start.getTime() + API_TOKEN_LAST_USED_EVERY_MS);
      await withToken(made.secret, { method: 'GET', url });
      expect(await lastUsed()).toBe(now.toISOString());
    } finally {
      now = start;
    }
  });

  it('passes the cross-origin guard, which still refuses a cookie from another origin', async () => {
    const { secret } = await makeToken('alice', ['generate']);
    const foreign = { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' };
    const byCookie = await asUser('alice', {
      method: 'POST',
      url: API_ROUTES.pauseHdQueue,
      headers: foreign,
    });
    expect(byCookie.statusCode).toBe(403);
    expect(byCookie.json()).toEqual({ error: errorText('CROSS_ORIGIN_REQUEST') });
    const byToken = await withToken(secret, {
      method: 'POST',
      url: API_ROUTES.pauseHdQueue,
      headers: foreign,
    });
    expect(byToken.statusCode).toBe(200);
    // A Bearer header does not carry a cookie through: a bogus one beside it gets 401.
    const smuggled = await app.inject({
      method: 'POST',
      url: API_ROUTES.pauseHdQueue,
      cookies: { [SESSION_COOKIE]: cookies.alice ?? '' },
      headers: { ...foreign, authorization: 'Bearer x' },
    });
    expect(smuggled.statusCode).toBe(401);
  });
});
