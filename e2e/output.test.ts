import fs from 'node:fs/promises';
import { buildHdCommand, formatImageDate, GALLERY_TEXTS, OUTPUT_TEXTS } from '@tessera/contract';
import type { HdSizeLabel } from '@tessera/contract';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { browserMissing, launchBrowser } from './support/browser.js';
import { openScreen, recordTexts } from './support/screen.js';
import { commandOverMqtt, orderHdOverMqtt, seedLdImages } from './support/seed.js';
import { startServer, type RunningServer } from './support/server.js';
import { addNewUser, openPage, signIn, userFolder, type User } from './support/session.js';

/**
 * Output, the HD gallery of SPEC §2 (checklist O1–O3), against the real server: HD images are
 * made by ordering them over MQTT as the browser does, with the fast Lanczos upscaler.
 */

const SQUARE = { latent_width: 1024, latent_height: 1024, kseed: 42 };

describe.skipIf(browserMissing)('Output: the HD gallery', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;

  async function newUser(): Promise<User> {
    const user = addNewUser(server, 'out');
    await seedLdImages(server, user, [
      { filename: 'slate.png', width: 1024, height: 1024, metadata: SQUARE, color: '#3b4a55' },
      { filename: 'clay.png', width: 1024, height: 1024, metadata: SQUARE, color: '#b5651d' },
    ]);
    return user;
  }

  /** Orders an HD version as the Image Details modal does and waits until it is made. */
  function orderHd(user: User, image: string, sizeLabel: HdSizeLabel): Promise<string> {
    const command = buildHdCommand({
      id: `e2e-${image}-${sizeLabel}-${Date.now()}`,
      user: user.username,
      image,
      metadata: SQUARE,
      sizeLabel,
    });
    return orderHdOverMqtt(server, user, command);
  }

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

  const grid = () => page.getByRole('list', { name: OUTPUT_TEXTS.images });
  const count = () => page.getByRole('status', { name: GALLERY_TEXTS.countLabel });

  async function openOutput(user: User) {
    await signIn(page, user.username, user.password);
    await openScreen(page, 'Output');
    await page.waitForURL('**/output');
  }

  it("shows each HD tile in its image's real shape, as the LD masonry does", async () => {
    const user = addNewUser(server, 'outshape');
    await seedLdImages(server, user, [
      {
        filename: 'strip.png',
        width: 1448,
        height: 724,
        metadata: { latent_width: 1448, latent_height: 724 },
        color: '#6f8a4e',
      },
    ]);
    const command = buildHdCommand({
      id: `e2e-shape-${Date.now()}`,
      user: user.username,
      image: 'strip.png',
      metadata: { latent_width: 1448, latent_height: 724 },
      sizeLabel: '30x60',
    });
    const name = await orderHdOverMqtt(server, user, command);
    await openOutput(user);
    const picture = grid()
      .getByRole('listitem')
      .filter({ has: page.getByRole('img', { name }) })
      .locator('.tile-open');
    await picture.waitFor();
    const box = await picture.boundingBox();
    // A Rectangle: twice as wide as high, not cropped to a square.
    expect(box && box.width / box.height).toBeCloseTo(2, 1);
  });

  it('[O1][O2][Z1][Z2] lists HD images in the grid and in a table of Preview, Name, Size, Date and download/delete', async () => {
    const user = await newUser();
    const slate = await orderHd(user, 'slate.png', '30x30');
    const clay = await orderHd(user, 'clay.png', '60x60');
    await openOutput(user);
    await expect
      .poll(() => count().textContent(), { timeout: 15_000 })
      .toBe(GALLERY_TEXTS.count(2));
    for (const name of [slate, clay]) {
      const thumbnail = grid().getByRole('img', { name });
      await thumbnail.waitFor();
      await expect
        .poll(() => thumbnail.evaluate((img) => (img as HTMLImageElement).naturalWidth))
        .toBeGreaterThan(0);
    }

    await page.getByRole('button', { name: 'List' }).click();
    const table = page.getByRole('table');
    await table.waitFor();
    // A select column first (issue 13: a selection downloads as one ZIP), then the spec's.
    const headers = await table.getByRole('columnheader').allTextContents();
    expect(headers.slice(1)).toEqual(['Preview', 'Name', 'Size', 'Date', 'Download / Delete']);
    expect(await table.getByRole('checkbox', { name: OUTPUT_TEXTS.selectAll }).count()).toBe(1);
    const listed = await commandOverMqtt(server, user, 'list-high-definition', {
      page: 1,
      size: 100,
    });
    const metadata = new Map(
      (listed.images as { filename: string; metadata: Record<string, unknown> }[]).map((i) => [
        i.filename,
        i.metadata,
      ]),
    );
    for (const [name, size] of [
      [slate, '30x30'],
      [clay, '60x60'],
    ] as const) {
      const row = table.getByRole('row').filter({ hasText: name });
      const cells = await row.getByRole('cell').allTextContents();
      expect(cells.slice(2, 5)).toEqual([name, size, formatImageDate(metadata.get(name) ?? {})]);
      expect(await row.getByRole('checkbox', { name: GALLERY_TEXTS.select(name) }).count()).toBe(1);
      expect(await row.getByRole('link', { name: `Download ${name}` }).getAttribute('href')).toBe(
        `/api/images/hd/${name}`,
      );
      expect(await row.getByRole('button', { name: `Delete ${name}` }).count()).toBe(1);
    }
  });

  it('[O3] clicking an HD image opens its details with Name, Size, Date and a Download that saves a named file', async () => {
    const user = await newUser();
    const slate = await orderHd(user, 'slate.png', '30x30');
    await openOutput(user);
    await grid().getByRole('button', { name: slate, exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'HD Image Details' });
    await dialog.waitFor();
    const field = (label: string) => dialog.locator(`dt:text-is("${label}") + dd`).textContent();
    expect(await field('Name')).toBe(slate);
    expect(await field('Size')).toBe('30x30');
    expect(await field('Date')).toMatch(/^\d{1,2}\/\d{1,2}\/\d{4}, \d{1,2}:\d{2}:\d{2}$/);

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      dialog.getByRole('link', { name: 'Download' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(slate);
    const saved = await fs.stat(await download.path());
    const original = await fs.stat(`${userFolder(server, user.username, 'hd')}/${slate}`);
    expect(saved.size).toBe(original.size);

    // A modal: Escape closes it.
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  });

  it('[O1] Refresh reloads the HD list, reading Refreshing... meanwhile', async () => {
    const user = await newUser();
    await orderHd(user, 'slate.png', '30x30');
    await openOutput(user);
    await expect
      .poll(() => count().textContent(), { timeout: 15_000 })
      .toBe(GALLERY_TEXTS.count(1));
    const made = await orderHd(user, 'clay.png', '30x30');
    expect(await grid().getByRole('img', { name: made }).count()).toBe(0);

    const refresh = page.getByRole('button', { name: 'Refresh' });
    const labels = await recordTexts(refresh);
    await refresh.click();
    await grid().getByRole('img', { name: made }).waitFor();
    await expect.poll(() => count().textContent()).toBe(GALLERY_TEXTS.count(2));
    expect(await labels()).toContain('Refreshing...');
  });

  it('[O2] deletes an HD image from the table and from the grid', async () => {
    const user = await newUser();
    const slate = await orderHd(user, 'slate.png', '30x30');
    const clay = await orderHd(user, 'clay.png', '30x30');
    await openOutput(user);
    await page.getByRole('button', { name: 'List' }).click();
    await page.getByRole('button', { name: `Delete ${slate}` }).click();
    await page.getByRole('row').filter({ hasText: slate }).waitFor({ state: 'detached' });
    await expect.poll(() => count().textContent()).toBe(GALLERY_TEXTS.count(1));

    await page.getByRole('button', { name: 'Gallery' }).click();
    const tile = grid()
      .getByRole('listitem')
      .filter({ has: page.getByRole('img', { name: clay }) });
    await tile.hover();
    await tile.getByRole('button', { name: `Delete ${clay}` }).click();
    await page.getByText('No se han encontrado imágenes.').waitFor();
    await page.getByRole('button', { name: GALLERY_TEXTS.deleteNow }).click();
    await expect.poll(() => fs.readdir(userFolder(server, user.username, 'hd'))).toEqual([]);
  });
});
