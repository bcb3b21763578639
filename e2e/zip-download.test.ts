import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import {
  buildHdCommand,
  DASHBOARD_TEXTS,
  GALLERY_TEXTS,
  OUTPUT_TEXTS,
  shownErrorText,
  ZIP_TEXTS,
} from '@tessera/contract';
import type { Browser, Download, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { browserMissing, launchBrowser } from './support/browser.js';
import { openScreen, recordShownTexts } from './support/screen.js';
import { commandOverMqtt, orderHdOverMqtt, refreshOverMqtt } from './support/seed.js';
import { startServer, type RunningServer } from './support/server.js';
import { addNewUser, openPage, signIn, userFolder, type User } from './support/session.js';
import { startSlowLine, type SlowLine } from './support/slow-line.js';

/**
 * Issue 13, feature 10, the whole way: select images in a gallery, click Download ZIP, watch
 * the progress, get the browser's download, and open the ZIP with Info-ZIP's `unzip`.
 */

const SQUARE = { latent_width: 1024, latent_height: 1024 };

/** LD images of noise (which PNG cannot shrink): a 1024² one is about 3 MB. */
async function seedNoiseImages(server: RunningServer, user: User, names: readonly string[]) {
  const folder = userFolder(server, user.username, 'ld');
  await fs.mkdir(folder, { recursive: true });
  for (const name of names) {
    const png = await sharp(randomBytes(1024 * 1024 * 3), {
      raw: { width: 1024, height: 1024, channels: 3 },
    })
      .png({ compressionLevel: 1 })
      .toBuffer();
    await fs.writeFile(path.join(folder, name), png);
  }
  await refreshOverMqtt(server, user);
}

/** The entries of the downloaded ZIP, each compared with the user's file of that name. */
async function checkZip(download: Download, folder: string): Promise<string[]> {
  const file = await download.path();
  execFileSync('unzip', ['-tq', file]);
  const entries = execFileSync('unzip', ['-Z1', file], { encoding: 'utf8' })
    .split('\n')
    .filter(Boolean);
  for (const entry of entries) {
    const inZip = execFileSync('unzip', ['-p', file, entry], { maxBuffer: 256 * 1024 * 1024 });
    expect(inZip.equals(await fs.readFile(path.join(folder, entry)))).toBe(true);
  }
  return entries.sort();
}

describe.skipIf(browserMissing)('Download a selection as one ZIP', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    server = await startServer({ BUILTIN_UPSCALER: 'lanczos', JOB_CONCURRENCY: '1' });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });
  beforeEach(async () => {
    page = await openPage(browser, server, {
      viewport: { width: 1280, height: 800 },
      acceptDownloads: true,
    });
  });
  afterEach(() => page.context().close());

  const status = () => page.getByRole('status', { name: ZIP_TEXTS.status });
  let slowLine: SlowLine | undefined;
  afterEach(() => slowLine?.close());

  /** Ticks an image's checkbox in the grid as a person does: pointer on the tile, then a click. */
  async function selectTile(name: string) {
    const tile = page
      .getByRole('list', { name: DASHBOARD_TEXTS.images })
      .getByRole('listitem')
      .filter({ has: page.getByRole('img', { name }) });
    await tile.hover();
    await tile.getByRole('checkbox', { name: GALLERY_TEXTS.select(name) }).check();
  }

  it('on the Dashboard: selected LD images, with progress over a slow line', async () => {
    const user = addNewUser(server, 'zipld');
    const names = Array.from({ length: 6 }, (_, i) => `noise-${i + 1}.png`);
    await seedNoiseImages(server, user, names);
    // About 13 MB at 2 MB/s: long enough to watch it go.
    slowLine = await startSlowLine(server.url, 2 * 1024 * 1024);
    await page.context().close();
    page = await openPage(
      browser,
      { ...server, url: slowLine.url },
      {
        viewport: { width: 1280, height: 800 },
        acceptDownloads: true,
      },
    );
    await signIn(page, user.username, user.password);
    await page
      .getByRole('status', { name: GALLERY_TEXTS.countLabel })
      .getByText(GALLERY_TEXTS.count(6))
      .waitFor();

    const chosen = ['noise-2.png', 'noise-3.png', 'noise-5.png', 'noise-6.png'];
    for (const name of chosen) await selectTile(name);
    await page.getByText(GALLERY_TEXTS.selectedCount(4)).waitFor();

    const texts = await recordShownTexts(page, ZIP_TEXTS.status);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: ZIP_TEXTS.download }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^tessera-ld-\d{4}-\d{2}-\d{2}-\d{4}\.zip$/);

    // While it runs: the bar and the percent move, and a second ZIP waits for this one.
    await expect
      .poll(async () => Number(await status().getByRole('progressbar').getAttribute('value')), {
        timeout: 20_000,
        interval: 100,
      })
      .toBeGreaterThan(0);
    expect(await page.getByRole('button', { name: ZIP_TEXTS.download }).isDisabled()).toBe(true);
    await status()
      .getByText(/^ZIP enviado: 4 imágenes, \d+,\d MB\. Tu navegador lo guarda\.$/)
      .waitFor({ timeout: 60_000 });
    expect(await page.getByRole('button', { name: ZIP_TEXTS.download }).isEnabled()).toBe(true);

    const shown = await texts();
    expect(shown[0]).toBe(ZIP_TEXTS.preparing(4));
    const percents = shown
      .map((text) => /^Descargando… (\d+) % \(.+ de .+ MB\)$/.exec(text)?.[1])
      .filter((percent) => percent !== undefined)
      .map(Number);
    // Several steps between start and end, rising.
    expect(percents.filter((p) => p > 0 && p < 100).length).toBeGreaterThanOrEqual(3);
    expect(percents).toEqual([...percents].sort((a, b) => a - b));
    expect(shown.at(-1)).toMatch(/^ZIP enviado: 4 imágenes/);

    expect(await download.failure()).toBeNull();
    expect(await checkZip(download, userFolder(server, user.username, 'ld'))).toEqual(chosen);

    await status().getByRole('button', { name: ZIP_TEXTS.dismiss }).click();
    await status().waitFor({ state: 'detached' });
  });

  it('on Output: HD images selected in the list, saved by the browser and unzipped', async () => {
    const user = addNewUser(server, 'ziphd');
    await seedNoiseImages(server, user, ['slate.png', 'clay.png']);
    const made: string[] = [];
    for (const [image, sizeLabel] of [
      ['slate.png', '30x30'],
      ['clay.png', '60x60'],
    ] as const) {
      made.push(
        await orderHdOverMqtt(
          server,
          user,
          buildHdCommand({
            id: `e2e-zip-${image}-${Date.now()}`,
            user: user.username,
            image,
            metadata: SQUARE,
            sizeLabel,
          }),
        ),
      );
    }
    await signIn(page, user.username, user.password);
    await openScreen(page, 'Output');
    await page.waitForURL('**/output');
    await page
      .getByRole('status', { name: GALLERY_TEXTS.countLabel })
      .getByText(GALLERY_TEXTS.count(2))
      .waitFor();
    await page.getByRole('button', { name: 'List' }).click();
    await page.getByRole('table').getByRole('checkbox', { name: OUTPUT_TEXTS.selectAll }).check();
    await page.getByText(GALLERY_TEXTS.selectedCount(2)).waitFor();

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: ZIP_TEXTS.download }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^tessera-hd-.+\.zip$/);
    await status()
      .getByText(/^ZIP enviado: 2 imágenes, /)
      .waitFor({ timeout: 30_000 });
    expect(await download.failure()).toBeNull();
    expect(await checkZip(download, userFolder(server, user.username, 'hd'))).toEqual(made.sort());
  });

  it('tells why when the server refuses: an image deleted meanwhile, and nothing downloads', async () => {
    const user = addNewUser(server, 'zipgone');
    await seedNoiseImages(server, user, ['kept.png', 'gone.png']);
    await signIn(page, user.username, user.password);
    await page
      .getByRole('status', { name: GALLERY_TEXTS.countLabel })
      .getByText(GALLERY_TEXTS.count(2))
      .waitFor();
    await selectTile('kept.png');
    await selectTile('gone.png');
    // Another tab of the user deletes one; this page has not heard of it yet.
    await commandOverMqtt(server, user, 'delete-low-definition', { filename: 'gone.png' });

    let downloads = 0;
    page.on('download', () => (downloads += 1));
    await page.getByRole('button', { name: ZIP_TEXTS.download }).click();
    const alert = page.getByRole('alert', { name: ZIP_TEXTS.status });
    await alert
      .getByText(ZIP_TEXTS.failed(shownErrorText('es', 'ZIP_UNKNOWN_IMAGE', 'gone.png')))
      .waitFor();
    expect(downloads).toBe(0);
  });
});
