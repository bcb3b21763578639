import {
  API_ROUTES,
  SCREEN_PATHS,
  SHELL_TEXTS,
  shownErrorText,
  TAG_TEXTS,
  TEXTS,
  UPSCALE_TEXTS,
} from '@tessera/contract';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { browserMissing, launchBrowser } from './support/browser.js';
import { startServer, type RunningServer } from './support/server.js';
import { addNewUser, openPage, signIn } from './support/session.js';
import { openScreen } from './support/screen.js';

/**
 * Issue 13, defect 5: every screen behind the sidebar ends its waiting. Without a session the app
 * goes to the login page; with the session cookie but no messaging password in this tab (a new
 * tab: session storage is per tab) it asks for the password once, then works.
 */

describe.skipIf(browserMissing)('the session of a tab', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    server = await startServer();
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

  const connection = (tab: Page) => tab.getByRole('status', { name: SHELL_TEXTS.connection.label });
  const reconnectPrompt = (tab: Page) =>
    tab.getByRole('heading', { name: SHELL_TEXTS.reconnectTitle });

  /** The login form is on screen, at `/`. */
  async function expectLoginPage(tab: Page) {
    await tab.getByRole('button', { name: 'Sign in' }).waitFor({ timeout: 10_000 });
    expect(new URL(tab.url()).pathname).toBe('/');
    expect(await tab.getByLabel('User').isVisible()).toBe(true);
  }

  for (const path of [
    SCREEN_PATHS.dashboard,
    SCREEN_PATHS.output,
    SCREEN_PATHS.upscale,
    SCREEN_PATHS.input,
  ]) {
    it(`sends a visitor without a session from ${path} to the login page`, async () => {
      await page.goto(path);
      await expectLoginPage(page);
    });
  }

  it('a new tab of a signed-in user asks for the password once, then shows the dashboard', async () => {
    const user = addNewUser(server, 'tab');
    await signIn(page, user.username, user.password);
    await expect
      .poll(() => connection(page).textContent(), { timeout: 10_000 })
      .toBe(SHELL_TEXTS.connection.connected);

    // Same browser, so the same session cookie; a new tab has empty session storage.
    const tab = await page.context().newPage();
    await tab.goto(SCREEN_PATHS.dashboard);
    await reconnectPrompt(tab).waitFor({ timeout: 10_000 });
    expect(await tab.getByText(SHELL_TEXTS.signedInAs(user.username)).isVisible()).toBe(true);

    await tab.getByLabel('Password').fill('not-the-password');
    await tab.getByRole('button', { name: SHELL_TEXTS.reconnect }).click();
    const alert = tab.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toBe(shownErrorText('es', 'INVALID_CREDENTIALS'));
    expect(await reconnectPrompt(tab).isVisible()).toBe(true);

    await tab.getByLabel('Password').fill(user.password);
    await tab.getByRole('button', { name: SHELL_TEXTS.reconnect }).click();
    await expect
      .poll(() => connection(tab).textContent(), { timeout: 10_000 })
      .toBe(SHELL_TEXTS.connection.connected);
    await tab.getByText(TEXTS.noImagesFound).waitFor({ timeout: 10_000 });
    expect(await tab.getByText(TAG_TEXTS.none).isVisible()).toBe(true);
    expect(new URL(tab.url()).pathname).toBe(SCREEN_PATHS.dashboard);

    // Moving on within the tab asks nothing more; the password never reaches local storage.
    await openScreen(tab, 'Output');
    await tab.waitForURL('**/output');
    await tab.getByText(TEXTS.noImagesFound).waitFor({ timeout: 10_000 });
    expect(await reconnectPrompt(tab).count()).toBe(0);
    const local = await tab.evaluate(() => JSON.stringify({ ...localStorage }));
    expect(local).not.toContain(user.password);
  });

  it('the prompt of a new tab can sign out instead, to sign in as someone else', async () => {
    const user = addNewUser(server, 'tab');
    await signIn(page, user.username, user.password);
    const tab = await page.context().newPage();
    await tab.goto(SCREEN_PATHS.output);
    await reconnectPrompt(tab).waitFor({ timeout: 10_000 });

    await tab.getByRole('button', { name: SHELL_TEXTS.signOut }).click();
    await expectLoginPage(tab);
    // That signed the browser out: the first tab, loaded again, asks for a sign-in too.
    await page.reload();
    await expectLoginPage(page);
  });

  it("a tab holding another user's password asks for the password of the cookie's user", async () => {
    const first = addNewUser(server, 'tab');
    const second = addNewUser(server, 'tab');
    await signIn(page, first.username, first.password);
    // Another tab of the same browser signs in as someone else: the shared cookie is theirs now.
    const other = await page.context().newPage();
    await signIn(other, second.username, second.password);

    await page.reload();
    await reconnectPrompt(page).waitFor({ timeout: 10_000 });
    expect(await page.getByText(SHELL_TEXTS.signedInAs(second.username)).isVisible()).toBe(true);
    expect(await page.evaluate(() => Object.values(sessionStorage))).not.toContain(first.password);
  });

  it('a screen whose request is refused for an ended session goes to the login page', async () => {
    const user = addNewUser(server, 'tab');
    await signIn(page, user.username, user.password);
    await openScreen(page, SHELL_TEXTS.nav.upscale);
    await page.getByText(UPSCALE_TEXTS.empty).waitFor({ timeout: 10_000 });

    // Signed out elsewhere in the browser (the cookie's session ends on the server).
    expect((await page.context().request.post(API_ROUTES.logout)).status()).toBe(204);
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expectLoginPage(page);
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
  });

  it('a tab whose session was ended in another tab goes to the login page when it loads', async () => {
    const user = addNewUser(server, 'tab');
    await signIn(page, user.username, user.password);
    await expect
      .poll(() => connection(page).textContent(), { timeout: 10_000 })
      .toBe(SHELL_TEXTS.connection.connected);
    const other = await page.context().newPage();
    await other.goto(SCREEN_PATHS.dashboard);
    await reconnectPrompt(other).waitFor({ timeout: 10_000 });
    await other.getByLabel('Password').fill(user.password);
    await other.getByRole('button', { name: SHELL_TEXTS.reconnect }).click();
    await expect
      .poll(() => connection(other).textContent(), { timeout: 10_000 })
      .toBe(SHELL_TEXTS.connection.connected);

    await other.getByRole('button', { name: SHELL_TEXTS.signOut }).click();
    await expectLoginPage(other);
    // The first tab still holds the messaging password, but the cookie's session is gone.
    await page.reload();
    await expectLoginPage(page);
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
  });
});
