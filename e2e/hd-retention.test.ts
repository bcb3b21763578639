import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import {
  ADMIN_TEXTS,
  buildHdCommand,
  formatStorage,
  OUTPUT_TEXTS,
  RETENTION_TEXTS,
  TEXTS,
} from '@tessera/contract';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SQLite } from '../server/src/store/sqlite-driver.js';
import { browserMissing, launchBrowser } from './support/browser.js';
import { openScreen } from './support/screen.js';
import { orderHdOverMqtt, seedLdImages } from './support/seed.js';
import { startServer, type RunningServer } from './support/server.js';
import { addNewUser, openPage, signIn, type User } from './support/session.js';

/**
 * The HD retention policy (issue 29, part 4) as an administrator and a user meet it: the dry run
 * of `npm run retention`, the run, the HD gallery saying when the policy removed the HD, and the
 * HD ordered again from its LD image. Against the built server with the fast Lanczos upscaler.
 */

const RETENTION = path.join(
  fileURLToPath(new URL('..', import.meta.url)),
  'server/dist/commands/retention.js',
);
const SQUARE = { latent_width: 1024, latent_height: 1024, kseed: 42 };
const LONG_AGO = '2020-01-01T00:00:00.000Z';

describe.skipIf(browserMissing)('HD retention', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  let user: User;

  const retention = async (...args: string[]) =>
    (
      await promisify(execFile)(process.execPath, [RETENTION, ...args], {
        env: { ...process.env, DATA_DIR: server.dataDir, HD_RETENTION_DAYS: '30' },
      })
    ).stdout;
  const orderHd = () =>
    orderHdOverMqtt(
      server,
      user,
      buildHdCommand({
        id: `e2e-retention-${Date.now()}`,
        user: user.username,
        image: 'slate.png',
        metadata: SQUARE,
        sizeLabel: '30x30',
      }),
    );

  beforeAll(async () => {
    server = await startServer({
      BUILTIN_UPSCALER: 'lanczos',
      JOB_CONCURRENCY: '1',
      HD_RETENTION_DAYS: '30',
    });
    browser = await launchBrowser();
    user = addNewUser(server, 'keep');
    await seedLdImages(server, user, [
      { filename: 'slate.png', width: 1024, height: 1024, metadata: SQUARE, color: '#3b4a55' },
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  /** The HD image made long ago, as far as the policy can tell; its size in bytes. */
  function madeLongAgo(hd: string): number {
    const db = new SQLite(path.join(server.dataDir, 'tessera.sqlite'));
    try {
      db.prepare('UPDATE images SET created_at = ? WHERE filename = ?').run(LONG_AGO, hd);
      const row = db.prepare("SELECT bytes FROM images WHERE kind = 'hd' AND filename = ?").get(hd);
      return Number((row as { bytes: number }).bytes);
    } finally {
      db.close();
    }
  }

  it('removes what the dry run listed; the gallery says so; ordering it again brings it back', async () => {
    const hd = await orderHd();
    madeLongAgo(hd);
    const dryRun = await retention('--dry-run');
    expect(dryRun).toContain(`${user.username}\t${hd}\t`);
    expect(dryRun).toMatch(/Would remove 1 HD file, freeing/);
    const run = await retention();
    expect(run.split('\n').slice(1, -2)).toEqual(dryRun.split('\n').slice(1, -2));
    expect(run).toMatch(/Removed 1 HD file, freed/);
    // A restart's reconciliation keeps the row and its thumbnail (the file is meant to be gone).
    await server.restart();

    page = await openPage(browser, server, { viewport: { width: 1280, height: 800 } });
    await signIn(page, user.username, user.password);
    await openScreen(page, 'Output');
    await page.waitForURL('**/output');
    const tile = page
      .getByRole('list', { name: OUTPUT_TEXTS.images })
      .getByRole('listitem')
      .filter({ has: page.getByRole('img', { name: hd }) });
    const note = tile.getByRole('note');
    await note.waitFor({ timeout: 15_000 });
    // Dated as the gallery dates images (es-ES, the browser's time zone): today, at the run.
    const today = await page.evaluate(() => new Date().toLocaleDateString('es-ES'));
    expect(await note.textContent()).toMatch(
      new RegExp(`^${TEXTS.hdRemovedByRetention(today)}, \\d{1,2}:\\d{2}:\\d{2}$`),
    );
    // The thumbnail stays (and loads, after the restart's reconciliation); the download does not.
    const thumbnail = tile.getByRole('img', { name: hd });
    await expect
      .poll(() => thumbnail.evaluate((img) => (img as HTMLImageElement).naturalWidth))
      .toBeGreaterThan(0);
    expect(await tile.getByRole('link', { name: `Download ${hd}` }).count()).toBe(0);

    // Ordered again: the same name, an ordinary HD image again.
    expect(await orderHd()).toBe(hd);
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect.poll(() => tile.getByRole('note').count(), { timeout: 15_000 }).toBe(0);
    await tile.getByRole('link', { name: `Download ${hd}` }).waitFor({ state: 'attached' });
    await page.context().close();
  }, 120_000);

  it('shows an admin the dry run on the Retention tab, and "run now" removes what it listed', async () => {
    const hd = await orderHd();
    const bytes = madeLongAgo(hd);
    const admin = await openPage(browser, server, { viewport: { width: 1280, height: 800 } });
    await signIn(admin, 'admin', server.adminPassword);
    await openScreen(admin, ADMIN_TEXTS.navLabel);
    await admin.getByRole('link', { name: RETENTION_TEXTS.tab }).click();
    await admin.getByRole('heading', { name: RETENTION_TEXTS.title, level: 1 }).waitFor();

    await admin.getByText(RETENTION_TEXTS.policy(30)).waitFor();
    const dryRun = admin.getByRole('region', { name: RETENTION_TEXTS.dryRunTitle });
    const listed = dryRun.getByRole('row').filter({ hasText: hd });
    expect(await listed.getByRole('cell').allTextContents()).toEqual([
      user.username,
      hd,
      formatStorage(bytes),
      expect.stringMatching(/2020/) as unknown as string,
    ]);
    await dryRun.getByText(RETENTION_TEXTS.dryRunSummary(1, bytes)).waitFor();

    await dryRun.getByRole('button', { name: RETENTION_TEXTS.runNow }).click();
    const confirm = admin.getByRole('dialog', { name: RETENTION_TEXTS.runTitle });
    await confirm.getByText(RETENTION_TEXTS.runQuestion(1, bytes)).waitFor();
    await confirm.getByRole('button', { name: RETENTION_TEXTS.runConfirm }).click();
    await admin
      .getByRole('status')
      .filter({ hasText: RETENTION_TEXTS.ran(1, bytes) })
      .waitFor();
    await dryRun.getByText(RETENTION_TEXTS.nothingToRemove).waitFor();

    // The run is on the audit trail under the admin's name.
    await admin.getByRole('link', { name: ADMIN_TEXTS.auditTab }).click();
    const entry = admin
      .getByRole('row')
      .filter({ hasText: ADMIN_TEXTS.actions['retention-run'] })
      .filter({ hasText: 'admin' });
    await entry.first().waitFor();
    await admin.context().close();
  }, 120_000);
});
