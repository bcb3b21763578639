import { DASHBOARD_TEXTS, OUTPUT_FORMATS } from '@tessera/contract';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserMissing, launchBrowser } from './support/browser.js';
import { seedLdImages } from './support/seed.js';
import { startServer, type RunningServer } from './support/server.js';
import { addNewUser, openPage, signIn, userFolder, type User } from './support/session.js';
import fs from 'node:fs';

/**
 * Issue 13, defect 1: a click on a tile's picture opens the image's details and never hits an
 * action. Every format, at every width of the grid (5, 3, 2 and 1 columns), clicked in the
 * middle of its tile as a person aims.
 */
const WIDTHS = [
  { width: 1400, columns: 5 },
  { width: 1000, columns: 3 },
  { width: 650, columns: 2 },
  { width: 450, columns: 1 },
];

describe.skipIf(browserMissing)('the gallery tiles', () => {
  let server: RunningServer;
  let browser: Browser;
  let user: User;

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
    user = addNewUser(server, 'tiles');
    await seedLdImages(
      server,
      user,
      OUTPUT_FORMATS.map((format, i) => ({
        filename: `${format.name.toLowerCase()}.png`,
        // Small pictures of the format's shape; the grid lays tiles out from the latent size.
        width: Math.round(format.width / 8),
        height: Math.round(format.height / 8),
        metadata: { latent_width: format.width, latent_height: format.height },
        modifiedAt: new Date(Date.UTC(2025, 0, 1) + i * 60_000),
      })),
    );
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  async function clickTileCentre(page: Page, filename: string): Promise<void> {
    const tile = page.getByRole('listitem').filter({ has: page.getByAltText(filename) });
    await tile.scrollIntoViewIfNeeded();
    const box = await tile.boundingBox();
    if (!box) throw new Error(`${filename}: no tile on screen`);
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  }

  for (const { width, columns } of WIDTHS) {
    it(`[D5] at ${width} px (${columns} columns) a click in the middle of every format's tile opens its details`, async () => {
      const page = await openPage(browser, server, { viewport: { width, height: 900 } });
      await signIn(page, user.username, user.password);
      const grid = page.getByRole('list', { name: DASHBOARD_TEXTS.images });
      await grid.waitFor();
      expect(await grid.getAttribute('data-columns')).toBe(String(columns));
      for (const format of OUTPUT_FORMATS) {
        const filename = `${format.name.toLowerCase()}.png`;
        await clickTileCentre(page, filename);
        const dialog = page.getByRole('dialog');
        await dialog.waitFor();
        expect(await dialog.textContent(), filename).toContain(filename);
        await page.keyboard.press('Escape');
        await dialog.waitFor({ state: 'detached' });
      }
      // Nothing was deleted on the way.
      expect(fs.readdirSync(userFolder(server, user.username, 'ld')).sort()).toEqual(
        OUTPUT_FORMATS.map((f) => `${f.name.toLowerCase()}.png`).sort(),
      );
      await page.context().close();
    });
  }
});
