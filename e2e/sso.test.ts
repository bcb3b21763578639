import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import {
  API_ROUTES,
  SCREEN_PATHS,
  SESSION_COOKIE,
  SHELL_TEXTS,
  SSO_TEXTS,
  TEXTS,
} from '@tessera/contract';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { adminLink } from './support/admin-screen.js';
import { browserMissing, launchBrowser } from './support/browser.js';
import { freePort } from './support/container.js';
import { startIdentityProvider, type IdentityProvider } from './support/identity-provider.js';
import { startServer, type RunningServer } from './support/server.js';
import { openPage } from './support/session.js';

const USERS_CLI = fileURLToPath(new URL('../server/dist/commands/users.js', import.meta.url));

const ACCOUNTS = [
  { login: 'sofia', claims: { preferred_username: 'sofia', groups: ['staff'] } },
  { login: 'marta', claims: { preferred_username: 'marta', groups: ['tessera-admins'] } },
  { login: 'dora', claims: { preferred_username: 'dora', groups: ['staff'] } },
];

/**
 * Single sign-on (issue 30, part 4) in Chromium against an OpenID Connect provider the test
 * starts on loopback: the person clicks the button, signs in on the provider's form and lands in
 * the app, whose galleries then come over MQTT with the session's messaging secret.
 */
describe.skipIf(browserMissing)('single sign-on with OpenID Connect', () => {
  let provider: IdentityProvider;
  let origin: string;
  let server: RunningServer;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    const port = await freePort();
    origin = `http://127.0.0.1:${port}`;
    provider = await startIdentityProvider(
      `${origin}${API_ROUTES.ssoCallback}`,
      `${origin}${SCREEN_PATHS.login}`,
      ACCOUNTS,
    );
    server = await startServer({
      PORT: String(port),
      OIDC_ISSUER: provider.issuer,
      OIDC_CLIENT_ID: provider.clientId,
      OIDC_CLIENT_SECRET: provider.clientSecret,
      OIDC_NAME: 'Acme',
      OIDC_ROLE_CLAIM: 'groups',
      OIDC_ADMIN_VALUE: 'tessera-admins',
    });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await provider?.stop();
  });
  beforeEach(async () => {
    page = await openPage(browser, server);
  });
  afterEach(() => page.context().close());

  const connection = () => page.getByRole('status', { name: SHELL_TEXTS.connection.label });

  /** From Tessera's login page through the provider's form, as a person does. */
  async function signInWithAcme(login: string) {
    await page.goto(SCREEN_PATHS.login);
    await page.getByRole('link', { name: SSO_TEXTS.signInWith('Acme') }).click();
    await page.locator('input[name="login"]').fill(login);
    await page.locator('input[name="password"]').fill('any password');
    await page.locator('button[type="submit"]').click();
  }

  it('signs a new person in, lands in the app and talks MQTT with the session secret', async () => {
    await signInWithAcme('sofia');
    await page.waitForURL((url) => url.pathname === SCREEN_PATHS.dashboard);
    // The gallery list is an MQTT command: it answers only over a working broker login.
    await page.getByText(TEXTS.noImagesFound).waitFor();
    expect(await connection().textContent()).toBe(SHELL_TEXTS.connection.connected);
    // A member: no admin screens.
    expect(await adminLink(page).count()).toBe(0);

    // A new tab of the same browser needs no password: it fetches its messaging login.
    const second = await page.context().newPage();
    await second.goto(SCREEN_PATHS.dashboard);
    await second.getByText(TEXTS.noImagesFound).waitFor();
    await second.close();
  });

  it("signs out of the provider too and comes back to Tessera's login page", async () => {
    await signInWithAcme('sofia');
    await page.waitForURL((url) => url.pathname === SCREEN_PATHS.dashboard);
    await page.getByText(TEXTS.noImagesFound).waitFor();
    // While the provider's session lives, the button signs in again without its form.
    await page.context().clearCookies({ name: SESSION_COOKIE });
    await page.goto(SCREEN_PATHS.login);
    await page.getByRole('link', { name: SSO_TEXTS.signInWith('Acme') }).click();
    await page.waitForURL((url) => url.pathname === SCREEN_PATHS.dashboard);
    await page.getByText(TEXTS.noImagesFound).waitFor();

    await page.getByRole('button', { name: SHELL_TEXTS.signOut }).click();
    // The provider's end-session page (oidc-provider asks to confirm), then back to Tessera.
    await page.waitForURL((url) => url.origin === provider.issuer);
    await page.getByRole('button', { name: 'Yes, sign me out' }).click();
    await page.waitForURL((url) => url.origin === origin && url.pathname === SCREEN_PATHS.login);
    const button = page.getByRole('link', { name: SSO_TEXTS.signInWith('Acme') });
    await button.waitFor();

    // The provider's session is over: its sign-in form asks again.
    await button.click();
    await page.locator('input[name="login"]').waitFor();
    expect(new URL(page.url()).origin).toBe(provider.issuer);
  });

  it('gives the admin role from the role claim', async () => {
    await signInWithAcme('marta');
    await page.waitForURL((url) => url.pathname === SCREEN_PATHS.dashboard);
    await adminLink(page).waitFor();
  });

  it('refuses a disabled account with the contract text', async () => {
    await signInWithAcme('dora');
    await page.waitForURL((url) => url.pathname === SCREEN_PATHS.dashboard);
    const disabled = spawnSync(process.execPath, [USERS_CLI, 'disable', 'dora'], {
      env: { ...process.env, DATA_DIR: server.dataDir, LOG_LEVEL: 'silent' },
      encoding: 'utf8',
    });
    expect(disabled.status, disabled.stderr).toBe(0);

    await page.context().clearCookies();
    await signInWithAcme('dora');
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toBe(SSO_TEXTS.errors['account-disabled']);
    expect(new URL(page.url()).pathname).toBe(SCREEN_PATHS.login);
  });

  it('refuses a way back whose state is not the one this browser started', async () => {
    await page.goto(`${API_ROUTES.ssoCallback}?code=forged&state=forged`);
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toBe(SSO_TEXTS.errors['state-mismatch']);
  });

  it("refuses an ID token whose nonce is not this browser's sign-in's", async () => {
    await page.goto(SCREEN_PATHS.login);
    await page.getByRole('link', { name: SSO_TEXTS.signInWith('Acme') }).click();
    await page.locator('input[name="login"]').waitFor();
    // Another sign-in's nonce in this browser's flow cookie, as a replayed answer would carry.
    const context = page.context();
    const flow = (await context.cookies()).find((c) => c.name === 'tessera_sso_flow');
    if (!flow) throw new Error('no flow cookie after the start');
    const pending = JSON.parse(Buffer.from(flow.value, 'base64url').toString()) as object;
    const forged = Buffer.from(JSON.stringify({ ...pending, nonce: 'another-nonce' }));
    await context.addCookies([{ ...flow, value: forged.toString('base64url') }]);
    await page.locator('input[name="login"]').fill('sofia');
    await page.locator('input[name="password"]').fill('any password');
    await page.locator('button[type="submit"]').click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toBe(SSO_TEXTS.errors['nonce-mismatch']);
  });
});
