import { API_ROUTES, errorText, whoamiAnswerSchema } from '@tessera/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Owner } from '../../owner.js';
import { createTestStore, passwordOf, type TestStore } from '../../testing/fixtures.js';
import { httpTestDependencies } from '../../testing/http-app.js';
import { buildHttpApp } from '../app.js';
import { SESSION_COOKIE } from '../session.js';

// GET /api/query/whoami (issue 30, part 1): a script checks its token before it starts.

let store: TestStore;
let app: FastifyInstance;
let alice: Owner;

beforeAll(async () => {
  // The first user is the administrator; alice is a member.
  store = await createTestStore(['root', 'alice']);
  app = await buildHttpApp(httpTestDependencies(store));
  const row = await store.db
    .selectFrom('users')
    .select('id')
    .where('username', '=', 'alice')
    .executeTakeFirstOrThrow();
  alice = { id: row.id, username: 'alice' };
});

afterAll(async () => {
  await app.close();
  await store.close();
});

const whoami = (headers: Record<string, string> = {}, cookies: Record<string, string> = {}) =>
  app.inject({ method: 'GET', url: API_ROUTES.whoami, headers, cookies });

describe('whoami', () => {
  it('tells a token its owner, and its own id, name, scopes and expiry, never its secret', async () => {
    const { token, secret } = await store.apiTokens.create(
      alice,
      { name: 'Pipeline', scopes: ['read', 'manage'], expires_in_days: 90 },
      { name: 'alice' },
    );
    const res = await whoami({ authorization: `Bearer ${secret}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(whoamiAnswerSchema.parse(res.json())).toEqual({
      username: 'alice',
      role: 'member',
      token: {
        id: token.id,
        name: 'Pipeline',
        scopes: ['read', 'manage'],
        expires_at: token.expires_at,
      },
    });
    expect(res.body).not.toContain(secret);
  });

  it('tells a token without expiry so (null)', async () => {
    const { secret } = await store.apiTokens.create(
      alice,
      { name: 'Forever', scopes: ['read'], expires_in_days: null },
      { name: 'alice' },
    );
    expect((await whoami({ authorization: `Bearer ${secret}` })).json()).toMatchObject({
      token: { name: 'Forever', expires_at: null },
    });
  });

  it('is a read: a token without the read scope gets 403, a revoked one 401', async () => {
    const made = await store.apiTokens.create(
      alice,
      { name: 'Generate only', scopes: ['generate'], expires_in_days: 30 },
      { name: 'alice' },
    );
    const refused = await whoami({ authorization: `Bearer ${made.secret}` });
    expect([refused.statusCode, refused.json()]).toEqual([
      403,
      { error: errorText('API_TOKEN_SCOPE_MISSING', 'read') },
    ]);
    await store.apiTokens.revoke(alice, made.token.id, { name: 'alice' });
    const revoked = await whoami({ authorization: `Bearer ${made.secret}` });
    expect([revoked.statusCode, revoked.json()]).toEqual([
      401,
      { error: errorText('API_TOKEN_INVALID') },
    ]);
  });

  it('tells the browser’s session its user, with no token; nobody gets 401', async () => {
    const login = await app.inject({
      method: 'POST',
      url: API_ROUTES.login,
      payload: { username: 'alice', password: passwordOf('alice') },
    });
    const cookie = login.cookies.find((c) => c.name === SESSION_COOKIE)?.value ?? '';
    const res = await whoami({}, { [SESSION_COOKIE]: cookie });
    expect([res.statusCode, res.json()]).toEqual([
      200,
      { username: 'alice', role: 'member', token: null },
    ]);
    const nobody = await whoami();
    expect([nobody.statusCode, nobody.json()]).toEqual([
      401,
      { error: errorText('NOT_SIGNED_IN') },
    ]);
  });
});
