import {
  ADMIN_SCREEN_PATHS,
  ADMIN_TEXTS,
  adminUsageSchema,
  API_ROUTES,
  formatUsageDay,
  SHELL_TEXTS,
  USAGE_TEXTS,
  utcDay,
} from '@tessera/contract';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { isAdminChunk, recordCspViolations } from './support/admin-screen.js';
import { browserMissing, launchBrowser } from './support/browser.js';
import { seedLdImages, sendHdOrdersOverMqtt } from './support/seed.js';
import { startServer, type RunningServer } from './support/server.js';
import { addNewUser, openPage, signIn } from './support/session.js';
import { openScreen } from './support/screen.js';
import { seedImageRows } from './support/usage-seed.js';

const T = USAGE_TEXTS;
const DAY_MS = 86_400_000;
const isChartsChunk = (path: string) => /\/assets\/charts-[^/]*\.js$/.test(path);

/** Noon (UTC) of the day `daysAgo` days before today: the same UTC day whenever the test runs. */
function noonDaysAgo(daysAgo: number): Date {
  const now = new Date();
  return new Date(
    Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), 12) - daysAgo * DAY_MS,
  );
}

/** A figures table (the chart's text for screen readers) as rows of cell texts, by its caption. */
async function figures(page: Page, caption: string): Promise<string[][]> {
  const table = page.getByRole('table', { name: caption });
  await table.locator('tbody tr').first().waitFor({ state: 'attached' });
  return table
    .locator('tr')
    .evaluateAll((rows) => rows.map((row) => Array.from(row.children, (c) => c.textContent ?? '')));
}

const rowOf = (rows: string[][], first: string) => rows.find((row) => row[0] === first);

/**
 * Issue 29, part 6, in the browser: an admin opens the admin screen and reads, at a glance, the
 * images made per day and per user, the queue now and the engine's state. A member sees none of it.
 */
describe.skipIf(browserMissing)('usage at a glance on the admin screen', () => {
  let server: RunningServer;
  let browser: Browser;
  const pages: Page[] = [];

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });
  afterEach(async () => {
    for (const page of pages.splice(0)) await page.context().close();
  });

  async function signedIn(username: string, password: string): Promise<Page> {
    const page = await openPage(browser, server);
    pages.push(page);
    await signIn(page, username, password);
    return page;
  }

  it('shows the images made per day and per user, the queue now and the engine', async () => {
    const ana = addNewUser(server, 'ana');
    const ben = addNewUser(server, 'ben');
    await seedImageRows(server, ana.username, [
      { kind: 'ld', madeAt: noonDaysAgo(1) },
      { kind: 'ld', madeAt: noonDaysAgo(1) },
      { kind: 'hd', madeAt: noonDaysAgo(1) },
      { kind: 'ld', madeAt: noonDaysAgo(3) },
    ]);
    // Ben paused his HD queue: the HD he orders waits in it.
    const benPage = await signedIn(ben.username, ben.password);
    expect((await benPage.request.post(API_ROUTES.pauseHdQueue)).status()).toBe(200);
    await seedLdImages(server, ben, [
      {
        filename: 'wait.png',
        width: 1024,
        height: 1024,
        modifiedAt: noonDaysAgo(2),
        metadata: { latent_width: 1024, latent_height: 1024 },
      },
    ]);
    await sendHdOrdersOverMqtt(server, ben, [{ image: 'wait.png', sizeLabel: '30x30' }]);
    // After the refresh the seeding asked for, which keeps only the LD rows with a file.
    await seedImageRows(server, ben.username, [
      { kind: 'ld', madeAt: noonDaysAgo(1) },
      { kind: 'hd', madeAt: noonDaysAgo(3) },
    ]);

    const loaded: string[] = [];
    const admin = await openPage(browser, server);
    pages.push(admin);
    admin.on('request', (request) => loaded.push(new URL(request.url()).pathname));
    const violations = await recordCspViolations(admin);
    await signIn(admin, 'admin', server.adminPassword);
    // The order arrives over MQTT: the admin API tells when it is queued.
    await expect
      .poll(
        async () => {
          const usage = adminUsageSchema.parse(
            await (await admin.request.get(API_ROUTES.adminUsage)).json(),
          );
          return usage.queue.find((q) => q.kind === 'hd');
        },
        { timeout: 20_000 },
      )
      .toEqual({ kind: 'hd', queued: 1, running: 0 });

    await openScreen(admin, ADMIN_TEXTS.navLabel);
    await admin.getByRole('heading', { name: T.title, level: 2 }).waitFor();
    for (const title of [T.imagesTitle, T.usersTitle, T.queueTitle, T.enginesTitle])
      await admin.getByRole('img', { name: title }).waitFor();

    const day = (daysAgo: number) => formatUsageDay(utcDay(noonDaysAgo(daysAgo)));
    const images = await figures(admin, T.imagesTitle);
    expect(images[0]).toEqual([T.day, T.ld, T.hd]);
    expect(images).toHaveLength(1 + 30);
    expect(rowOf(images, day(1))).toEqual([day(1), '3', '1']);
    expect(rowOf(images, day(2))).toEqual([day(2), '1', '0']);
    expect(rowOf(images, day(3))).toEqual([day(3), '1', '1']);

    const perUser = await figures(admin, T.usersTitle);
    expect(perUser[0]).toEqual([T.day, ana.username, ben.username, T.others]);
    expect(rowOf(perUser, day(1))).toEqual([day(1), '3', '1', '0']);
    expect(rowOf(perUser, day(2))).toEqual([day(2), '0', '1', '0']);

    const queue = await figures(admin, T.queueTitle);
    expect(rowOf(queue, T.kinds.hd)).toEqual([T.kinds.hd, '1', '0']);
    expect(rowOf(queue, T.kinds.preview)).toEqual([T.kinds.preview, '0', '0']);

    const engines = admin.getByRole('list', { name: T.enginesTitle }).getByRole('listitem');
    expect(await engines.allTextContents()).toEqual([`${T.builtinEngine}: ${T.states.up}`]);

    await admin.waitForLoadState('networkidle');
    expect(await violations()).toEqual([]);
    expect(loaded.some(isAdminChunk)).toBe(true);
    expect(loaded.some(isChartsChunk)).toBe(true);
  });

  it('shows a member none of it: no charts, 403 from the usage API, no chart code loaded', async () => {
    const member = addNewUser(server, 'member');
    const page = await openPage(browser, server);
    pages.push(page);
    const loaded: string[] = [];
    page.on('request', (request) => loaded.push(new URL(request.url()).pathname));
    await signIn(page, member.username, member.password);
    await page.goto(ADMIN_SCREEN_PATHS.users);
    await page.getByRole('heading', { name: SHELL_TEXTS.notFoundTitle }).waitFor();
    expect(await page.getByText(T.title).count()).toBe(0);
    expect(await page.getByRole('img', { name: T.imagesTitle }).count()).toBe(0);
    expect((await page.request.get(API_ROUTES.adminUsage)).status()).toBe(403);
    expect(loaded.filter((path) => isAdminChunk(path) || isChartsChunk(path))).toEqual([]);
  });
});
