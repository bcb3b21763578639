import fastifyCookie from '@fastify/cookie';
import { API_ROUTES, errorText } from '@tessera/contract';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestStore, passwordOf, silentLogger, type TestStore } from '../testing/fixtures.js';
import { sessionRoutes } from './routes/session.js';
import { sameOriginGuard, type SameOriginOptions } from './same-origin.js';
import { SESSION_COOKIE, sessionHook } from './session.js';

// The server as a browser reaches it, and a page of another origin on the same site (another
// port of the same host): SameSite=Strict sends the session cookie with the latter's requests.
const HOST = '127.0.0.1:8080';
const OWN_ORIGIN = `http://${HOST}`;
const OTHER_ORIGIN = 'http://127.0.0.1:3000';

let store: TestStore;
let app: FastifyInstance;

/** The session routes on a real database, behind the guard as buildHttpApp registers it. */
async function sessionApp(options: SameOriginOptions = {}): Promise<FastifyInstance> {
  const built = Fastify({ loggerInstance: silentLogger as FastifyBaseLogger });
  await built.register(sameOriginGuard, options);
  await built.register(fastifyCookie);
  await built.register(sessionHook, { auth: store.auth, tokens: store.apiTokens });
  await built.register(sessionRoutes, { auth: store.auth });
  return built;
}

beforeAll(async () => {
  store = await createTestStore(['alice']);
  app = await sessionApp();
});

afterAll(async () => {
  await app.close();
  await store.close();
});

/** A session of alice's, signed in through the app itself. */
async function signedIn(): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: API_ROUTES.login,
    headers: { host: HOST, origin: OWN_ORIGIN, 'sec-fetch-site': 'same-origin' },
    payload: { username: 'alice', password: passwordOf('alice') },
  });
  expect(res.statusCode).toBe(200);
  return res.cookies.find((c) => c.name === SESSION_COOKIE)?.value ?? '';
}

function logout(token: string, headers: Record<string, string>) {
  return app.inject({
    method: 'POST',
    url: API_ROUTES.logout,
    headers: { host: HOST, ...headers },
    cookies: { [SESSION_COOKIE]: token },
  });
}

async function sessionLives(token: string): Promise<boolean> {
  const me = await app.inject({ url: API_ROUTES.session, cookies: { [SESSION_COOKIE]: token } });
  return me.statusCode === 200;
}

describe('requests from another origin (issue 22, part 1)', () => {
  it.each([
    ['the browser says same-site', { 'sec-fetch-site': 'same-site', origin: OTHER_ORIGIN }],
    ['the browser says cross-site', { 'sec-fetch-site': 'cross-site', origin: OTHER_ORIGIN }],
    ['an older browser sends only its Origin', { origin: OTHER_ORIGIN }],
    ['a sandboxed page sends Origin null', { origin: 'null' }],
    [
      'the Origin is foreign whatever Sec-Fetch-Site says',
      { 'sec-fetch-site': 'same-origin', origin: OTHER_ORIGIN },
    ],
  ])('refuses a state change when %s (issue 22, part 1)', async (_case, headers) => {
    const token = await signedIn();
    const res = await logout(token, headers);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: errorText('CROSS_ORIGIN_REQUEST') });
    expect(await sessionLives(token)).toBe(true);
  });

  it('refuses a sign-in posted by a page of another origin, and sets no cookie (issue 22, part 1)', async () => {
    const res = await app.inject({
      method: 'POST',
      url: API_ROUTES.login,
      headers: { host: HOST, origin: OTHER_ORIGIN, 'sec-fetch-site': 'same-site' },
      payload: { username: 'alice', password: passwordOf('alice') },
    });
    expect(res.statusCode).toBe(403);
    expect(res.cookies).toEqual([]);
  });

  it.each([
    ['the app itself', { 'sec-fetch-site': 'same-origin', origin: OWN_ORIGIN }],
    ['an older browser on the app', { origin: OWN_ORIGIN }],
    ['an address typed by the user', { 'sec-fetch-site': 'none' }],
    ['a script without a browser (curl)', {}],
  ])('lets a state change from %s through (issue 22, part 1)', async (_case, headers) => {
    const token = await signedIn();
    expect((await logout(token, headers)).statusCode).toBe(204);
    expect(await sessionLives(token)).toBe(false);
  });

  it('lets reads from another origin through: they change nothing (issue 22, part 1)', async () => {
    const token = await signedIn();
    const me = await app.inject({
      url: API_ROUTES.session,
      headers: { host: HOST, origin: OTHER_ORIGIN, 'sec-fetch-site': 'same-site' },
      cookies: { [SESSION_COOKIE]: token },
    });
    expect(me.statusCode).toBe(200);
  });
});

describe('PUBLIC_URL: the origin browsers reach a server behind a proxy at (issue 22, part 1)', () => {
  // The proxy serves https://tiles.example and passes requests on with its own Host.
  const PUBLIC_ORIGIN = 'https://tiles.example';
  let proxied: FastifyInstance;
  beforeAll(async () => {
    proxied = await sessionApp({ publicOrigin: PUBLIC_ORIGIN });
  });
  afterAll(() => proxied.close());

  async function signedInBehindProxy(): Promise<string> {
    const res = await proxied.inject({
      method: 'POST',
      url: API_ROUTES.login,
      headers: { host: HOST, origin: PUBLIC_ORIGIN, 'sec-fetch-site': 'same-origin' },
      payload: { username: 'alice', password: passwordOf('alice') },
    });
    expect(res.statusCode).toBe(200);
    return res.cookies.find((c) => c.name === SESSION_COOKIE)?.value ?? '';
  }

  it('lets the public origin change state although the Host differs (issue 22, part 1)', async () => {
    const token = await signedInBehindProxy();
    const res = await proxied.inject({
      method: 'POST',
      url: API_ROUTES.logout,
      headers: { host: HOST, origin: PUBLIC_ORIGIN },
      cookies: { [SESSION_COOKIE]: token },
    });
    expect(res.statusCode).toBe(204);
  });

  it.each([
    ['the Host the proxy sent', OWN_ORIGIN],
    ['another port of the public host', 'https://tiles.example:8443'],
    ['the public host over plain http', 'http://tiles.example'],
  ])('refuses %s as Origin (issue 22, part 1)', async (_case, origin) => {
    const token = await signedInBehindProxy();
    const res = await proxied.inject({
      method: 'POST',
      url: API_ROUTES.logout,
      headers: { host: HOST, origin },
      cookies: { [SESSION_COOKIE]: token },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: errorText('CROSS_ORIGIN_REQUEST') });
  });
});
