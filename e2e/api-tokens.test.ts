import fs from 'node:fs';
import path from 'node:path';
import {
  API_ROUTES,
  API_TOKEN_PREFIX,
  API_TOKEN_TEXTS,
  DIALOG_TEXTS,
  errorText,
} from '@tessera/contract';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { callWithToken, makeApiToken, statusWithToken } from './support/api-tokens.js';
import { browserMissing, launchBrowser } from './support/browser.js';
import { commandOverMqtt, seedLdImages } from './support/seed.js';
import { startServer, type RunningServer } from './support/server.js';
import { addNewUser, openPage, signIn, userFolder } from './support/session.js';

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
    await shown.getByRole('button', { name: DIALOG_TEXTS.copy }).click();
    await shown.getByRole('button', { name: DIALOG_TEXTS.copied }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await shown.getByRole('button', { name: DIALOG_TEXTS.done, exact: true }).click();

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
    await create.getByRole('button', { name: DIALOG_TEXTS.cancel }).click();
    await page.getByText(T.empty).waitFor();
  });
});

/**
 * A script with a token changes what only MQTT could change before (issue 30, part 1): it makes
 * a tag, tags and stars an image, renames the tag and deletes another image, and the app's own
 * MQTT answers show it. A read-only token, and another user's token, change nothing.
 */
describe('a script that tags, stars and deletes with a token', () => {
  let server: RunningServer;

  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('does what its manage scope allows, to its own images only', async () => {
    const user = addNewUser(server, 'scripted');
    await seedLdImages(server, user, [{ filename: 'oak.png' }, { filename: 'slate.png' }]);
    const token = await makeApiToken(server, user, ['read', 'manage']);
    const readOnly = await makeApiToken(server, user, ['read']);
    const stranger = await makeApiToken(server, addNewUser(server, 'stranger'), ['manage']);
    const call = (path: string, body?: unknown, secret = token) =>
      callWithToken(server, secret, path, body);

    // The script checks its token first.
    expect(await call(API_ROUTES.whoami)).toMatchObject({
      status: 200,
      json: { username: user.username, token: { name: 'e2e script', scopes: ['read', 'manage'] } },
    });

    const tag = { id: 'floor', name: 'Suelo', color: '#aa8844' };
    expect(await call(API_ROUTES.createTag, tag)).toEqual({ status: 201, json: { id: 'floor' } });
    expect((await call(API_ROUTES.assignTag, { id: 'floor', filename: 'oak.png' })).status).toBe(
      200,
    );
    expect(await call(API_ROUTES.starLd, { filename: 'oak.png', starred: true })).toEqual({
      status: 200,
      json: { filename: 'oak.png', starred: true },
    });
    const renamed = { ...tag, name: 'Suelo roble' };
    expect((await call(API_ROUTES.updateTag, renamed)).status).toBe(200);

    // Neither a read-only token nor another user's token deletes anything.
    const refusedByScope = await call(API_ROUTES.deleteLd, { filename: 'slate.png' }, readOnly);
    expect(refusedByScope).toEqual({
      status: 403,
      json: { error: errorText('API_TOKEN_SCOPE_MISSING', 'manage') },
    });
    expect((await call(API_ROUTES.createTag, { ...tag, id: 'x' }, readOnly)).status).toBe(403);
    const refusedAsStranger = await call(API_ROUTES.deleteLd, { filename: 'slate.png' }, stranger);
    expect(refusedAsStranger).toEqual({
      status: 404,
      json: { error: errorText('IMAGE_NOT_FOUND', 'slate.png') },
    });
    const ldFolder = userFolder(server, user.username, 'ld');
    expect(fs.existsSync(path.join(ldFolder, 'slate.png'))).toBe(true);

    expect(await call(API_ROUTES.deleteLd, { filename: 'slate.png' })).toEqual({
      status: 200,
      json: {},
    });
    expect(fs.existsSync(path.join(ldFolder, 'slate.png'))).toBe(false);

    // What the app reads over MQTT: the renamed tag, the tagged and starred image, no slate.png.
    expect(await commandOverMqtt(server, user, 'list-tag', { page: 1, size: 10 })).toMatchObject({
      tags: [renamed],
    });
    const listed = await commandOverMqtt(server, user, 'list-low-definition', {
      page: 1,
      size: 10,
      search: {},
    });
    expect(listed).toMatchObject({
      total: 1,
      images: [{ filename: 'oak.png', tags: ['floor'], starred: true }],
    });
  });
});
