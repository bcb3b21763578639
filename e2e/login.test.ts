import { API_ROUTES, SCREEN_PATHS, SHELL_TEXTS, shownErrorText } from '@tessera/contract';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { browserMissing, launchBrowser } from './support/browser.js';
import { startServer, type RunningServer } from './support/server.js';
import { openPage } from './support/session.js';
import { openScreen } from './support/screen.js';

describe.skipIf(browserMissing)('login and the app shell', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    server = await startServer({ TITLE: 'Tessera E2E' });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });
  beforeEach(async () => {
    page = await openPage(browser, server);
  });
  afterEach(() => page.context().close());

  async function signIn(username: string, password: string) {
    await page.goto(SCREEN_PATHS.login);
    await page.getByLabel('User').fill(username);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
  }

  const connection = () => page.getByRole('status', { name: SHELL_TEXTS.connection.label });

  it('[L1][B1][B2] shows the login form under the configured title and theme', async () => {
    await page.goto(SCREEN_PATHS.login);
    await expect.poll(() => page.title()).toBe('Tessera E2E');
    expect(await page.getByLabel('User').isVisible()).toBe(true);
    expect(await page.getByLabel('Password').getAttribute('type')).toBe('password');
    expect(await page.getByRole('button', { name: 'Sign in' }).isVisible()).toBe(true);
    const stylesheet = page.locator('link[rel="stylesheet"][href="/themes/default/style.css"]');
    expect(await stylesheet.count()).toBe(1);
    expect(await page.locator('link[rel~="icon"]').getAttribute('href')).toBe(
      '/themes/default/icon.svg',
    );
  });

  it("[L3] a wrong password shows the server's error text under the form", async () => {
    await signIn('admin', 'not-the-password');
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toBe(shownErrorText('es', 'INVALID_CREDENTIALS'));
    expect(new URL(page.url()).pathname).toBe('/');
  });

  it("[L4] a network failure shows 'Login failed'", async () => {
    await page.route(`**${API_ROUTES.login}`, (route) => route.abort('connectionrefused'));
    await signIn('admin', server.adminPassword);
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('alert').textContent()).toBe('Login failed');
  });

  it('[L2][B3][B4][B5] the right password lands on /dashboard with the messaging client connected', async () => {
    await signIn('admin', server.adminPassword);
    await page.waitForURL('**/dashboard');
    await expect
      .poll(() => connection().textContent(), { timeout: 10_000 })
      .toBe(SHELL_TEXTS.connection.connected);
    const stored = await page.evaluate(() => Object.values(sessionStorage));
    expect(stored).toContain('admin');
  });

  it('[R1][R2][R3] the sidebar leads to every screen and the logo to /dashboard', async () => {
    await signIn('admin', server.adminPassword);
    await page.waitForURL('**/dashboard');
    for (const [name, path] of [
      ['Generate', SCREEN_PATHS.generate],
      ['Output', SCREEN_PATHS.output],
      [SHELL_TEXTS.nav.upscale, SCREEN_PATHS.upscale],
      [SHELL_TEXTS.nav.input, SCREEN_PATHS.input],
      ['Dashboard', SCREEN_PATHS.dashboard],
    ] as const) {
      await openScreen(page, name);
      await page.waitForURL(`**${path}`);
    }
    await openScreen(page, 'Output');
    await page.waitForURL('**/output');
    await page.getByRole('img', { name: 'Tessera' }).click();
    await page.waitForURL('**/dashboard');
    // One client for the page's life: navigating does not reconnect.
    expect(await connection().textContent()).toBe(SHELL_TEXTS.connection.connected);
  });
});
