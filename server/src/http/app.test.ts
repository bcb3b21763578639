import { API_ROUTES, STATE_CHANGING_ROUTES } from '@tessera/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestStore, passwordOf, type TestStore } from '../testing/fixtures.js';
import { httpTestDependencies } from '../testing/http-app.js';
import { brokerUrlResolver } from './public-address.js';
import { buildHttpApp } from './app.js';
import { SESSION_COOKIE } from './session.js';

let store: TestStore;
let app: FastifyInstance;
/** Every method and path the app registers, as Fastify's onRoute hook tells them. */
const registered: { method: string; path: string }[] = [];

beforeAll(async () => {
  store = await createTestStore(['alice', 'bob'], {
    perUsernameAndAddress: { points: 10, seconds: 900 },
    perAddress: { points: 30, seconds: 900 },
  });
  // Each service has its own route tests; here every one is a strict fake nothing reaches.
  app = await buildHttpApp(
    httpTestDependencies(store, {
      brokerUrlFor: brokerUrlResolver({
        allowedHosts: ['tiles.local', 'localhost'],
        path: '/mqtt',
        port: () => 8080,
      }),
      onRoute: (route) => {
        const methods = Array.isArray(route.method) ? route.method : [route.method];
        for (const method of methods) registered.push({ method, path: route.url });
      },
    }),
  );
});

afterAll(async () => {
  await app.close();
  await store.close();
});

function login(username: string, password: string, remoteAddress = '10.0.0.1') {
  return app.inject({
    method: 'POST',
    url: '/api/login',
    payload: { username, password },
    remoteAddress,
  });
}

describe('the API route table', () => {
  it('is what the server serves: every route of the contract is registered', () => {
    const unserved = Object.entries(API_ROUTES).filter(
      ([, url]) =>
        !(['GET', 'POST', 'PUT'] as const).some((method) => app.hasRoute({ method, url })),
    );
    expect(unserved).toEqual([]);
  });

  it('lists in the contract every state-changing route the app registers, which the cross-origin browser test sends (issue 22, part 1)', () => {
    const byPath = (a: { path: string }, b: { path: string }) => a.path.localeCompare(b.path);
    const changing = registered.filter(
      ({ method }) => !['GET', 'HEAD', 'OPTIONS'].includes(method),
    );
    expect(changing.sort(byPath)).toEqual([...STATE_CHANGING_ROUTES].sort(byPath));
  });
});

describe('start-up endpoints', () => {
  it('[B1] answers the title', async () => {
    const res = await app.inject('/api/title');
    expect(res.json()).toEqual({ title: 'Tessera Test' });
  });

  it('[B2] answers the theme, whose files are served', async () => {
    expect((await app.inject('/api/theme')).json()).toEqual({ theme: 'default' });
    const css = await app.inject('/themes/default/style.css');
    expect(css.statusCode).toBe(200);
    expect(css.headers['content-type']).toMatch(/text\/css/);
    const logo = await app.inject('/themes/default/logo.svg');
    expect(logo.headers['content-type']).toMatch(/image\/svg\+xml/);
  });

  it('[B3] answers the broker address as the requesting browser reaches it', async () => {
    const res = await app.inject({
      url: '/api/mosquitto/url',
      headers: { host: 'tiles.local:8080' },
    });
    expect(res.json()).toEqual({ url: 'ws://tiles.local:8080/mqtt', protocolVersion: 4 });
  });

  it('never echoes a Host header that does not name this server', async () => {
    const res = await app.inject({
      url: '/api/mosquitto/url',
      headers: { host: 'evil.example:8080' },
    });
    expect(res.json()).toMatchObject({ url: 'ws://tiles.local:8080/mqtt' });
  });

  it('answers the health check', async () => {
    expect((await app.inject('/api/health')).json()).toEqual({ status: 'ok' });
  });

  it('does not serve files outside a theme folder', async () => {
    const res = await app.inject('/themes/../package.json');
    expect(res.statusCode).toBe(404);
    const encoded = await app.inject('/themes/default/%2e%2e/%2e%2e/package.json');
    expect(encoded.statusCode).toBe(404);
  });
});

describe('login', () => {
  it('[L2] signs in with the right password and sets an HttpOnly SameSite session cookie', async () => {
    const res = await login('alice', passwordOf('alice'));
    expect(res.statusCode).toBe(200);
    // Beyond the spec's 200, the messaging secret of the session (issue 22, part 3).
    expect(res.json()).toEqual({
      username: 'alice',
      messagingSecret: expect.stringMatching(/^tessera-secret:[\w-]{43}$/) as unknown,
    });
    const cookie = res.cookies.find((c) => c.name === SESSION_COOKIE);
    expect(cookie).toBeDefined();
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/' });
    expect(cookie?.secure).toBeFalsy();
    expect(cookie?.value).toMatch(/^[\w-]{43}$/);

    const me = await app.inject({
      url: '/api/session',
      cookies: { [SESSION_COOKIE]: cookie?.value ?? '' },
    });
    // Beyond the spec's username, the role (issue 29): alice is the store's first user, an admin.
    expect(me.json()).toEqual({ username: 'alice', role: 'admin' });
  });

  it('[L3] answers a wrong password with 401 and a readable error field', async () => {
    const res = await login('alice', 'wrong');
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: 'Invalid username or password' });
    expect(res.cookies).toHaveLength(0);
  });

  it('[L3] gives an unknown user the same answer as a wrong password', async () => {
    const res = await login('nobody', 'whatever');
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: 'Invalid username or password' });
  });

  it('[L5] leaves validation to the server: an empty or malformed body gets an error text', async () => {
    const empty = await login('', '');
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toEqual({ error: 'Enter a username and a password' });
    const garbage = await app.inject({
      method: 'POST',
      url: '/api/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"username":',
    });
    expect(garbage.statusCode).toBe(400);
    expect(garbage.json()).toHaveProperty('error');
  });

  it('refuses /api/session without a valid cookie', async () => {
    expect((await app.inject('/api/session')).statusCode).toBe(401);
    const forged = await app.inject({
      url: '/api/session',
      cookies: { [SESSION_COOKIE]: 'forged' },
    });
    expect(forged.statusCode).toBe(401);
  });

  it('ends the session on logout', async () => {
    const token = (await login('bob', passwordOf('bob'))).cookies[0]?.value ?? '';
    const out = await app.inject({
      method: 'POST',
      url: '/api/logout',
      cookies: { [SESSION_COOKIE]: token },
    });
    expect(out.statusCode).toBe(204);
    expect(out.cookies[0]).toMatchObject({ name: SESSION_COOKIE, value: '' });
    const me = await app.inject({ url: '/api/session', cookies: { [SESSION_COOKIE]: token } });
    expect(me.statusCode).toBe(401);
  });

  it('sends nosniff on every answer', async () => {
    expect((await app.inject('/api/title')).headers['x-content-type-options']).toBe('nosniff');
  });
});

describe('login rate limiting', () => {
  it('throttles a username at an address after 10 failures there, and nowhere else', async () => {
    await store.users.add('carol', passwordOf('carol'));
    for (let i = 0; i < 10; i++) {
      expect((await login('carol', `wrong-${i}`, '10.1.0.1')).statusCode).toBe(401);
    }
    const throttled = await login('carol', passwordOf('carol'), '10.1.0.1');
    expect(throttled.statusCode).toBe(429);
    expect(throttled.json().error).toMatch(
      /^Too many sign-in attempts\. Try again in \d+ seconds\.$/,
    );
    expect(Number(throttled.headers['retry-after'])).toBeGreaterThan(0);
    // The owner elsewhere, and other users at that address, are not affected.
    expect((await login('carol', passwordOf('carol'), '10.1.1.1')).statusCode).toBe(200);
    expect((await login('alice', passwordOf('alice'), '10.1.0.1')).statusCode).toBe(200);
  });

  it('limits the failures of one address, whatever the usernames; successes never count', async () => {
    for (let i = 0; i < 40; i++) {
      expect((await login('alice', passwordOf('alice'), '10.2.0.1')).statusCode).toBe(200);
    }
    for (let i = 0; i < 30; i++) {
      expect((await login(`user${i}`, 'x', '10.2.0.1')).statusCode).toBe(401);
    }
    const limited = await login('alice', passwordOf('alice'), '10.2.0.1');
    expect(limited.statusCode).toBe(429);
    expect((await login('alice', passwordOf('alice'), '10.2.0.2')).statusCode).toBe(200);
    // 72 scrypt hashes: seconds of CPU on two cores shared with other suites.
  }, 120_000);

  it('forgets the failures of a username at an address once the right password is given there', async () => {
    await store.users.add('dave', passwordOf('dave'));
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 9; i++) {
        expect((await login('dave', `wrong-${i}`, '10.3.0.1')).statusCode).toBe(401);
      }
      expect((await login('dave', passwordOf('dave'), '10.3.0.1')).statusCode).toBe(200);
    }
  });
});

describe('content security policy', () => {
  it('lets scripts come from this server only and connections go to it and its broker', async () => {
    const res = await app.inject({ url: '/api/title', headers: { host: 'tiles.local:8080' } });
    const policy = String(res.headers['content-security-policy']);
    const directive = (name: string) =>
      policy
        .split(';')
        .map((d) => d.trim().split(/\s+/))
        .find(([n]) => n === name)
        ?.slice(1);
    expect(directive('script-src')).toEqual(["'self'"]);
    expect(directive('connect-src')).toEqual(["'self'", 'ws://tiles.local:8080']);
    expect(directive('img-src')).not.toContain('*');
    expect(directive('img-src')).not.toContain('http:');
    expect(directive('object-src')).toEqual(["'none'"]);
  });
});
