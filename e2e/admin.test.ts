import fs from 'node:fs';
import {
  ADMIN_SCREEN_PATHS,
  ADMIN_SCREENS_ROOT,
  ADMIN_TEXTS,
  API_ROUTES,
  DASHBOARD_TEXTS,
  shownErrorText,
  routeUrl,
  SCREEN_PATHS,
  SHELL_TEXTS,
} from '@tessera/contract';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  adminLink,
  createUserOnScreen,
  isAdminChunk,
  listedUser,
  modal,
  readShownPassword,
  recordCspViolations,
  userAction,
  userRow,
} from './support/admin-screen.js';
import { browserMissing, launchBrowser } from './support/browser.js';
import { seedLdImages } from './support/seed.js';
import { startServer, type RunningServer } from './support/server.js';
import { addNewUser, openPage, signIn, userFolder, type User } from './support/session.js';
import { openScreen } from './support/screen.js';

const T = ADMIN_TEXTS;

/**
 * Issue 29, parts 2 and 5, in the browser: an admin drives every action of the users screen as a
 * person would, each proven from another browser (a second context signs in, or cannot), and
 * finds each in the audit trail. A member sees none of it.
 */
describe.skipIf(browserMissing)('the administrator screens', () => {
  let server: RunningServer;
  let browser: Browser;
  let admin: Page;
  const others: Page[] = [];

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });
  beforeEach(async () => {
    admin = await openPage(browser, server);
    await admin.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await signIn(admin, 'admin', server.adminPassword);
    await openScreen(admin, T.navLabel);
    await admin.getByRole('heading', { name: T.usersTitle, level: 1 }).waitFor();
  });
  afterEach(async () => {
    await admin.context().close();
    for (const page of others.splice(0)) await page.context().close();
  });

  const row = (name: string) => userRow(admin, name);
  const rowAction = (name: string, action: string) => userAction(admin, name, action);
  const dialog = (title: string) => modal(admin, title);
  const createUser = (name: string, options?: { password?: string; admin?: boolean }) =>
    createUserOnScreen(admin, name, options);

  /** Signs in from another browser (own cookies), as that user would; resolves at the dashboard. */
  async function signInElsewhere(user: User): Promise<Page> {
    const page = await openPage(browser, server);
    others.push(page);
    await signIn(page, user.username, user.password);
    return page;
  }

  /** Tries the login form from another browser; resolves with the alert it shows. */
  async function failedSignIn(user: User): Promise<string | null> {
    const page = await openPage(browser, server);
    others.push(page);
    await page.goto(SCREEN_PATHS.login);
    await page.getByLabel('User').fill(user.username);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    return alert.textContent();
  }

  it('creates users with a generated or a typed password, who can then sign in', async () => {
    const password = await createUser('ana');
    await row('ana').waitFor();
    expect(await row('ana').locator('td').first().textContent()).toBe(T.roles.member);
    const ana = await signInElsewhere({ username: 'ana', password });
    // A member: the sidebar is the spec's own.
    await ana
      .getByRole('navigation', { name: SHELL_TEXTS.mainNavigation })
      .getByRole('link')
      .first()
      .waitFor();
    expect(await adminLink(ana).count()).toBe(0);

    const typed = 'bea-typed-password-1';
    expect(await createUser('bea', { password: typed, admin: true })).toBe(typed);
    await row('bea').waitFor();
    expect(await row('bea').locator('td').first().textContent()).toBe(T.roles.admin);
    const bea = await signInElsewhere({ username: 'bea', password: typed });
    await adminLink(bea).waitFor();

    // A refusal reads the contract's text, in the dialog.
    await admin.getByRole('button', { name: T.createUser }).click();
    await dialog(T.createTitle).getByLabel(T.usernameLabel).fill('ana');
    await dialog(T.createTitle).getByRole('button', { name: T.create }).click();
    const refusal = dialog(T.createTitle).getByRole('alert');
    await refusal.waitFor();
    expect(await refusal.textContent()).toBe(shownErrorText('es', 'USER_EXISTS', 'ana'));
  });

  it('resets a password: the old one no longer works, the new one does, sessions end', async () => {
    const user = addNewUser(server, 'reset');
    const before = await signInElsewhere(user);
    await admin.reload();
    await rowAction(user.username, T.resetPassword).click();
    await dialog(T.resetTitle(user.username)).getByRole('button', { name: T.reset }).click();
    const password = await readShownPassword(admin, user.username);

    expect(await failedSignIn(user)).toBe(shownErrorText('es', 'INVALID_CREDENTIALS'));
    await signInElsewhere({ ...user, password });
    // The session the user had before the reset is over.
    await before.reload();
    await before.getByRole('button', { name: 'Sign in' }).waitFor({ timeout: 10_000 });
  });

  it('disables a user (no sign-in, data kept) and enables them again', async () => {
    const user = addNewUser(server, 'pause');
    await admin.reload();
    await rowAction(user.username, T.disable).click();
    await row(user.username).getByText(T.disabledBadge).waitFor();
    expect(await failedSignIn(user)).toBe(shownErrorText('es', 'ACCOUNT_DISABLED'));

    await rowAction(user.username, T.enable).click();
    await rowAction(user.username, T.disable).waitFor();
    expect(await row(user.username).getByText(T.disabledBadge).count()).toBe(0);
    await signInElsewhere(user);
  });

  it('makes a member an admin, who then sees the admin screens, and a member again', async () => {
    const user = addNewUser(server, 'role');
    await admin.reload();
    await rowAction(user.username, T.makeAdmin).click();
    await rowAction(user.username, T.makeMember).waitFor();
    expect(await row(user.username).locator('td').first().textContent()).toBe(T.roles.admin);
    const asAdmin = await signInElsewhere(user);
    await openScreen(asAdmin, T.navLabel);
    await asAdmin.getByRole('heading', { name: T.usersTitle, level: 1 }).waitFor();

    await rowAction(user.username, T.makeMember).click();
    await rowAction(user.username, T.makeAdmin).waitFor();
    expect(await row(user.username).locator('td').first().textContent()).toBe(T.roles.member);
    const asMember = await signInElsewhere(user);
    await asMember.goto(ADMIN_SCREEN_PATHS.users);
    await asMember.getByRole('heading', { name: SHELL_TEXTS.notFoundTitle }).waitFor();
    expect(await adminLink(asMember).count()).toBe(0);
  });

  it('removes users, keeping or deleting their images, after naming the counts', async () => {
    const keeper = addNewUser(server, 'keep');
    const leaver = addNewUser(server, 'gone');
    await seedLdImages(server, keeper, [{ filename: 'k1.png' }, { filename: 'k2.png' }]);
    await seedLdImages(server, leaver, [{ filename: 'g1.png' }]);
    await admin.reload();

    for (const [user, choice, done, ld] of [
      [keeper, T.removeKeep, T.removedKept(keeper.username), 2],
      [leaver, T.removeDelete, T.removedDeleted(leaver.username), 1],
    ] as const) {
      const listed = await listedUser(admin, user.username);
      expect(listed?.ldImages).toBe(ld);
      await rowAction(user.username, T.remove).click();
      const confirm = dialog(T.removeTitle(user.username));
      const counts = T.removeCounts(ld, 0, listed?.storageBytes ?? -1);
      await confirm.getByText(counts).waitFor();
      expect(counts).toContain(`${ld} imágenes LD, 0 imágenes HD`);
      await confirm.getByLabel(choice).check();
      await confirm.getByRole('button', { name: T.removeConfirm }).click();
      await admin.getByRole('status').getByText(done).waitFor();
      if (user === keeper) {
        // Still listed, marked, with only their images to take over or delete left to do.
        await row(user.username).getByText(T.retiredBadge).waitFor();
        const actions = admin.getByRole('group', { name: T.actionsFor(user.username) });
        expect(await actions.getByRole('button').allTextContents()).toEqual([T.takeOver, T.remove]);
      } else {
        await row(user.username).waitFor({ state: 'detached' });
      }
      expect(await failedSignIn(user)).toBe(shownErrorText('es', 'INVALID_CREDENTIALS'));
    }
    const files = (user: User) => {
      const folder = userFolder(server, user.username, 'ld');
      return fs.existsSync(folder) ? fs.readdirSync(folder).filter((f) => f.endsWith('.png')) : [];
    };
    expect(files(keeper).sort()).toEqual(['k1.png', 'k2.png']);
    expect(files(leaver)).toEqual([]);
  });

  it("takes over a removed user's images, which then show in the admin's own dashboard", async () => {
    const heir = addNewUser(server, 'heir');
    await seedLdImages(server, heir, [{ filename: 'heir-1.png' }, { filename: 'heir-2.png' }]);
    await admin.reload();
    await rowAction(heir.username, T.remove).click();
    const remove = dialog(T.removeTitle(heir.username));
    await remove.getByLabel(T.removeKeep).check();
    await remove.getByRole('button', { name: T.removeConfirm }).click();
    await row(heir.username).getByText(T.retiredBadge).waitFor();

    const listed = await listedUser(admin, heir.username);
    await rowAction(heir.username, T.takeOver).click();
    const confirm = dialog(T.takeOverTitle(heir.username));
    await confirm.getByText(T.removeCounts(2, 0, listed?.storageBytes ?? -1)).waitFor();
    await confirm.getByRole('button', { name: T.takeOverConfirm }).click();
    await admin
      .getByRole('status')
      .getByText(T.takenOver(heir.username, 2, 0))
      .waitFor();
    await row(heir.username).waitFor({ state: 'detached' });

    await openScreen(admin, 'Dashboard');
    const grid = admin.getByRole('list', { name: DASHBOARD_TEXTS.images });
    for (const name of ['heir-1.png', 'heir-2.png']) {
      await grid.getByRole('img', { name }).waitFor();
    }
    const old = userFolder(server, heir.username, 'ld');
    expect(fs.existsSync(old) ? fs.readdirSync(old) : []).toEqual([]);
  });

  it('lists the audit trail of these actions, with filters', async () => {
    const user = addNewUser(server, 'audit');
    await admin.reload();
    await rowAction(user.username, T.makeAdmin).click();
    await rowAction(user.username, T.makeMember).click();
    await rowAction(user.username, T.makeAdmin).waitFor();

    await admin.getByRole('link', { name: T.auditTab }).click();
    await admin.getByRole('heading', { name: T.auditTitle, level: 1 }).waitFor();
    const rows = admin.locator('tbody tr');
    await rows.first().waitFor();
    const seen = new Set(await rows.evaluateAll((trs) => trs.map((tr) => tr.dataset['action'])));
    for (const action of [
      'sign-in',
      'sign-in-failed',
      'user-created',
      'password-reset',
      'user-disabled',
      'user-enabled',
      'role-changed',
      'user-removed',
    ]) {
      expect(seen, action).toContain(action);
    }

    const filters = admin.locator('form.admin-filters');
    await filters.getByLabel(T.filterAction).selectOption('role-changed');
    await filters.getByLabel(T.filterTarget).fill(user.username);
    await filters.getByRole('button', { name: T.applyFilters }).click();
    await expect.poll(() => rows.count()).toBe(2);
    const texts = await rows.allTextContents();
    for (const text of texts) {
      expect(text).toContain(T.actions['role-changed']);
      expect(text).toContain('admin');
    }
    // Newest first: back to member, then the promotion.
    expect(texts[0]).toContain('to: member');
    expect(texts[1]).toContain('to: admin');
    expect(texts[0]).toContain('127.0.0.1');

    const today = await admin.evaluate(() => new Date().toLocaleDateString('sv'));
    await filters.getByLabel(T.filterFrom).fill(today);
    await filters.getByLabel(T.filterTo).fill(today);
    await filters.getByRole('button', { name: T.applyFilters }).click();
    await expect.poll(() => rows.count()).toBe(2);
    const tomorrow = await admin.evaluate(() => {
      const date = new Date();
      date.setDate(date.getDate() + 1);
      return date.toLocaleDateString('sv');
    });
    await filters.getByLabel(T.filterFrom).fill(tomorrow);
    await filters.getByLabel(T.filterTo).fill(tomorrow);
    await filters.getByRole('button', { name: T.applyFilters }).click();
    await admin.getByText(T.auditEmpty).waitFor();

    await filters.getByRole('button', { name: T.clearFilters }).click();
    await rows.first().waitFor();
    expect(await rows.count()).toBeGreaterThan(2);
  });

  it('pages through the audit trail, 50 entries a page, newest first', async () => {
    const user = addNewUser(server, 'pages');
    const roleRoute = routeUrl(API_ROUTES.adminUserRole, { username: user.username });
    for (let i = 0; i < 60; i++) {
      const role = i % 2 === 0 ? 'admin' : 'member';
      expect((await admin.request.post(roleRoute, { data: { role } })).status()).toBe(200);
    }
    await admin.getByRole('link', { name: T.auditTab }).click();
    const filters = admin.locator('form.admin-filters');
    await filters.getByLabel(T.filterAction).selectOption('role-changed');
    await filters.getByLabel(T.filterTarget).fill(user.username);
    await filters.getByRole('button', { name: T.applyFilters }).click();
    const rows = admin.locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(50);
    // The newest is the 60th change: back to member.
    expect(await rows.first().textContent()).toContain('to: member');
    expect(await admin.getByText(T.auditPage(1)).count()).toBe(1);

    await admin.getByRole('button', { name: T.olderEntries }).click();
    await admin.getByText(T.auditPage(2)).waitFor();
    await expect.poll(() => rows.count()).toBe(10);
    expect(await rows.last().textContent()).toContain('to: admin');
    expect(await admin.getByRole('button', { name: T.olderEntries }).count()).toBe(0);

    await admin.getByRole('button', { name: T.newestEntries }).click();
    await admin.getByText(T.auditPage(1)).waitFor();
    await expect.poll(() => rows.count()).toBe(50);
  });

  it('shows a member nothing of it: no sidebar link, no screen at /admin/*', async () => {
    const member = addNewUser(server, 'member');
    const page = await openPage(browser, server);
    others.push(page);
    const loaded: string[] = [];
    page.on('request', (request) => loaded.push(new URL(request.url()).pathname));
    await signIn(page, member.username, member.password);
    await page
      .getByRole('navigation', { name: SHELL_TEXTS.mainNavigation })
      .getByRole('link')
      .first()
      .waitFor();
    expect(await adminLink(page).count()).toBe(0);
    for (const path of [ADMIN_SCREEN_PATHS.users, ADMIN_SCREEN_PATHS.audit, ADMIN_SCREENS_ROOT]) {
      await page.goto(path);
      await page.getByRole('heading', { name: SHELL_TEXTS.notFoundTitle }).waitFor();
      expect(await page.getByRole('table').count()).toBe(0);
      expect(await page.getByText(T.usersTitle).count()).toBe(0);
      expect(await adminLink(page).count()).toBe(0);
    }
    expect((await page.request.get(API_ROUTES.adminUsers)).status()).toBe(403);
    // The admin screens are a chunk of their own, which a member's browser never loads.
    expect(loaded.filter(isAdminChunk)).toEqual([]);
  });

  it('runs the admin screens under the content security policy, in their own chunk', async () => {
    const page = await openPage(browser, server);
    others.push(page);
    const loaded: string[] = [];
    page.on('request', (request) => loaded.push(new URL(request.url()).pathname));
    const violations = await recordCspViolations(page);
    await signIn(page, 'admin', server.adminPassword);
    await openScreen(page, T.navLabel);
    await page.locator('tr[data-username]').first().waitFor();
    await page.getByRole('button', { name: T.createUser }).click();
    await page.getByRole('dialog', { name: T.createTitle }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('link', { name: T.auditTab }).click();
    await page.locator('tbody tr').first().waitFor();
    await page.waitForLoadState('networkidle');
    expect(await violations()).toEqual([]);
    expect(loaded.some(isAdminChunk)).toBe(true);
  });
});
