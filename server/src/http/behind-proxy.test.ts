import { API_ROUTES } from '@tessera/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestStore, passwordOf, type TestStore } from '../testing/fixtures.js';
import { httpTestDependencies } from '../testing/http-app.js';
import { buildHttpApp } from './app.js';
import { brokerUrlAtOrigin } from './public-address.js';
import { SESSION_COOKIE } from './session.js';
import { trustFunction } from './trusted-proxy.js';

/** The app as a TLS proxy at 127.0.0.1 in front of it sees it (PUBLIC_URL=https://…). */
let store: TestStore;
let proxied: FastifyInstance;
/** The same app on its defaults: no PUBLIC_URL, no TRUST_PROXY. */
let direct: FastifyInstance;

beforeAll(async () => {
  store = await createTestStore(['alice', 'bob'], {
    perUsernameAndAddress: { points: 3, seconds: 900 },
    perAddress: { points: 5, seconds: 900 },
  });
  proxied = await buildHttpApp(
    // The services are strict fakes: these tests reach none of them.
    httpTestDependencies(store, {
      brokerUrlFor: () => brokerUrlAtOrigin('https://tiles.example', '/mqtt'),
      publicOrigin: 'https://tiles.example',
      httpsOnly: true,
      trustProxy: trustFunction({ addresses: ['127.0.0.1'] }),
    }),
  );
  direct = await buildHttpApp(httpTestDependencies(store));
});

afterAll(async () => {
  await proxied.close();
  await direct.close();
  await store.close();
});

/** A login as the proxy passes it on: from its address, saying whose request it is. */
function loginThroughProxy(username: string, password: string, client: string, peer = '127.0.0.1') {
  return proxied.inject({
    method: 'POST',
    url: '/api/login',
    payload: { username, password },
    remoteAddress: peer,
    headers: { 'x-forwarded-for': client, 'x-forwarded-proto': 'https' },
  });
}

describe('behind a TLS proxy with PUBLIC_URL=https://… (issue 23, part 1)', () => {
  it('marks the session cookie Secure though the request reached it as plain HTTP', async () => {
    const reply = await proxied.inject({
      method: 'POST',
      url: '/api/login',
      payload: { username: 'alice', password: passwordOf('alice') },
      remoteAddress: '127.0.0.1',
    });
    expect(reply.statusCode).toBe(200);
    const cookie = reply.cookies.find((c) => c.name === SESSION_COOKIE);
    expect(cookie).toMatchObject({ secure: true, httpOnly: true, sameSite: 'Strict' });
  });

  it('sends HSTS with every answer, and none without an https PUBLIC_URL', async () => {
    for (const url of ['/api/title', API_ROUTES.brokerUrl, '/api/session']) {
      const reply = await proxied.inject({ url });
      expect(reply.headers['strict-transport-security']).toBe('max-age=31536000');
    }
    const plain = await direct.inject({ url: '/api/title' });
    expect(plain.headers['strict-transport-security']).toBeUndefined();
    const login = await direct.inject({
      method: 'POST',
      url: '/api/login',
      payload: { username: 'bob', password: passwordOf('bob') },
      remoteAddress: '10.1.1.1',
    });
    expect(login.cookies.find((c) => c.name === SESSION_COOKIE)?.secure).toBeFalsy();
  });

  it('tells browsers the broker at wss://<PUBLIC_URL host>/mqtt, in the answer and the CSP', async () => {
    const reply = await proxied.inject({
      url: API_ROUTES.brokerUrl,
      headers: { host: '10.0.0.7' },
    });
    expect(reply.json()).toEqual({ url: 'wss://tiles.example/mqtt', protocolVersion: 4 });
    expect(reply.headers['content-security-policy']).toContain('wss://tiles.example');
  });

  it("counts a trusted proxy's forwarded client in the login limits: one client's lock-out is not another's", async () => {
    for (let i = 0; i < 3; i += 1) {
      expect((await loginThroughProxy('bob', 'wrong', '203.0.113.5')).statusCode).toBe(401);
    }
    expect((await loginThroughProxy('bob', passwordOf('bob'), '203.0.113.5')).statusCode).toBe(429);
    expect((await loginThroughProxy('bob', passwordOf('bob'), '203.0.113.6')).statusCode).toBe(200);
  });

  it('believes no forwarded address from a peer that is not the trusted proxy', async () => {
    // A client reaching the server directly cannot spread its guesses over made-up addresses.
    for (let i = 0; i < 5; i += 1) {
      const reply = await loginThroughProxy(`nobody${i}`, 'wrong', `198.51.100.${i}`, '10.2.2.2');
      expect(reply.statusCode).toBe(401);
    }
    const next = await loginThroughProxy('alice', passwordOf('alice'), '198.51.100.99', '10.2.2.2');
    expect(next.statusCode).toBe(429);
  });
});
