import { API_ROUTES, SESSION_COOKIE } from '@tessera/contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestStore, passwordOf, type TestStore } from '../../testing/fixtures.js';
import { httpTestDependencies } from '../../testing/http-app.js';
import { buildHttpApp } from '../app.js';

// Single sign-on switched off (no OIDC_ISSUER): the routes say so and nothing else changes.
// The flow itself is tested end to end in Chromium (e2e/sso.test.ts).

let store: TestStore;
beforeEach(async () => {
  store = await createTestStore(['root']);
});
afterEach(() => store.close());

describe('single sign-on, off', () => {
  it('tells the login page it is off and sends a start back to the login page', async () => {
    const app = await buildHttpApp(httpTestDependencies(store));
    const config = await app.inject({ method: 'GET', url: API_ROUTES.ssoConfig });
    expect(config.json()).toEqual({ enabled: false });
    const start = await app.inject({ method: 'GET', url: API_ROUTES.ssoStart });
    expect(start.statusCode).toBe(302);
    expect(start.headers.location).toBe('/?sso-error=not-enabled');
    await app.close();
  });

  it('gives a password session no messaging secret through it', async () => {
    const app = await buildHttpApp(httpTestDependencies(store));
    const login = await app.inject({
      method: 'POST',
      url: API_ROUTES.login,
      payload: { username: 'root', password: passwordOf('root') },
    });
    const cookie = `${SESSION_COOKIE}=${login.cookies.find((c) => c.name === SESSION_COOKIE)?.value}`;
    const secret = await app.inject({
      method: 'GET',
      url: API_ROUTES.ssoMessagingSecret,
      headers: { cookie },
    });
    expect(secret.statusCode).toBe(404);
    const anonymous = await app.inject({ method: 'GET', url: API_ROUTES.ssoMessagingSecret });
    expect(anonymous.statusCode).toBe(401);
    await app.close();
  });
});
