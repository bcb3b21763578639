import { API_ROUTES, API_TOKEN_PREFIX, API_TOKEN_TEXTS } from '@tessera/contract';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { statusWithToken } from './support/api-tokens.js';
import { browserMissing, launchBrowser } from './support/browser.js';
import { startServer, type RunningServer } from './support/server.js';
import { addNewUser, openPage, signIn } from './support/session.js';

const T = API_TOKEN_TEXTS;

/**
 * Issue 30, part 1, in the browser: a person makes an API token on the tokens screen, sees its
 * secret once, a script uses it, the person revokes it on the screen, and the script gets 401.
 */
describe.skipIf(browserMissing)('the API tokens screen', () => {
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
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await signIn(page, ...credentials(addNewUser(server, 'tokens')));
  });
  afterEach(async () => {
    await page.context().close();
  });

  function credentials(user: { username: string; password: string }): [string, string] {
    return [user.username, user.password];
  }

  async function openTokensScreen(): Promise<void> {
    await page.getByRole('link', { name: T.navLabel }).click();
    await page.getByRole('heading', { name: T.title, level: 1 }).waitFor();
  }

  it('makes a token shown once, which a script uses until it is revoked on screen', async () => {
    await openTokensScreen();
    await page.getByText(T.empty).waitFor();

    await page.getByRole('button', { name: T.create }).click();
    const create = page.getByRole('dialog', { name: T.createTitle });
    await create.getByLabel(T.nameLabel).fill('Pipeline HD');
    await create.getByLabel(T.scopes.generate).check();
    await create.getByLabel(T.expiryLabel).selectOption({ label: T.expiryDays(30) });
    await create.getByRole('button', { name: T.create }).click();

    const shown = page.getByRole('dialog', { name: T.secretTitle });
    const secret = (await shown.getByLabel(T.secretLabel).textContent()) ?? '';
    expect(secret.startsWith(API_TOKEN_PREFIX)).toBe(true);
    await shown.getByRole('button', { name: T.copy }).click();
    await shown.getByRole('button', { name: T.copied }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await shown.getByRole('button', { name: T.close, exact: true }).click();

    // Listed with its scopes and dates, never with its secret again.
    const row = page.getByRole('row', { name: /Pipeline HD/ });
    await row.waitFor();
    expect(await row.textContent()).toContain(`${T.scopeNames.read}, ${T.scopeNames.generate}`);
    expect(await row.textContent()).toContain(T.neverUsed);
    expect(await page.content()).not.toContain(secret);
    await page.reload();
    await row.waitFor();
    expect(await page.content()).not.toContain(secret);

    // The script.
    expect(await statusWithToken(server, API_ROUTES.ldList, secret)).toBe(200);
    expect(await statusWithToken(server, API_ROUTES.hdJobs, secret)).toBe(200);
    // The token is not a session: the cookie-only routes refuse it.
    expect(await statusWithToken(server, API_ROUTES.apiTokens, secret)).toBe(403);

    await page.reload();
    await row.waitFor();
    expect(await row.textContent()).not.toContain(T.neverUsed);

    await row.getByRole('button', { name: T.revokeLabel('Pipeline HD') }).click();
    const confirm = page.getByRole('dialog', { name: T.revokeTitle('Pipeline HD') });
    await confirm.getByRole('button', { name: T.revoke }).click();
    await page
      .getByRole('status')
      .filter({ hasText: T.revoked('Pipeline HD') })
      .waitFor();
    await row.waitFor({ state: 'detached' });
    await page.getByText(T.empty).waitFor();

    expect(await statusWithToken(server, API_ROUTES.ldList, secret)).toBe(401);
  });

  it('asks for at least one permission, and makes nothing without', async () => {
    await openTokensScreen();
    await page.getByRole('button', { name: T.create }).click();
    const create = page.getByRole('dialog', { name: T.createTitle });
    await create.getByLabel(T.nameLabel).fill('Nada');
    await create.getByLabel(T.scopes.read).uncheck();
    await create.getByRole('button', { name: T.create }).click();
    expect(await create.getByRole('alert').textContent()).toBe(T.scopesMissing);
    await create.getByRole('button', { name: T.cancel }).click();
    await page.getByText(T.empty).waitFor();
  });
});
