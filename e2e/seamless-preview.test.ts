import { SEAMLESS_TEXTS } from '@tessera/contract';
import fs from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { browserMissing, launchBrowser } from './support/browser.js';
import { refreshOverMqtt } from './support/seed.js';
import { startServer, type RunningServer } from './support/server.js';
import { openPage, signIn, userFolder } from './support/session.js';

/**
 * The 3×3 repeat preview (beyond the spec): a person judges a texture's seams by seeing it
 * tiled. The test image is a 2×2 checkerboard (red top left and bottom right, blue elsewhere),
 * so three copies across and down make a 6×6 checkerboard.
 */
describe.skipIf(browserMissing)('the 3×3 seamless preview', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    server = await startServer();
    const admin = { username: 'admin', password: server.adminPassword };
    const folder = userFolder(server, 'admin', 'ld');
    await fs.mkdir(folder, { recursive: true });
    const blue = await sharp({
      create: { width: 512, height: 512, channels: 3, background: '#0000ff' },
    })
      .png()
      .toBuffer();
    await sharp({ create: { width: 1024, height: 1024, channels: 3, background: '#ff0000' } })
      .composite([
        { input: blue, left: 512, top: 0 },
        { input: blue, left: 0, top: 512 },
      ])
      .png()
      .toFile(`${folder}/checker.png`);
    await refreshOverMqtt(server, admin);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });
  beforeEach(async () => {
    page = await openPage(browser, server, { viewport: { width: 1280, height: 900 } });
    await signIn(page, 'admin', server.adminPassword);
  });
  afterEach(() => page.context().close());

  /** The colour at fractions (fx, fy) of a screenshot, as 'red', 'blue' or the raw value. */
  async function colourAt(
    shot: Buffer,
    points: readonly (readonly [number, number])[],
  ): Promise<string[]> {
    const { data, info } = await sharp(shot).raw().toBuffer({ resolveWithObject: true });
    return points.map(([fx, fy]) => {
      const x = Math.floor(fx * info.width);
      const y = Math.floor(fy * info.height);
      const at = (y * info.width + x) * info.channels;
      const [r = 0, g = 0, b = 0] = [data[at], data[at + 1], data[at + 2]];
      if (r > 200 && g < 60 && b < 60) return 'red';
      if (b > 200 && r < 60 && g < 60) return 'blue';
      return `rgb(${r},${g},${b})`;
    });
  }

  it('a toggle shows the image repeated three times across and down, and back', async () => {
    await page.getByRole('button', { name: 'checker.png', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'checker.png' });
    await dialog.waitFor();
    const toggle = dialog.getByRole('button', { name: SEAMLESS_TEXTS.tiledPreview });
    expect(await toggle.getAttribute('aria-pressed')).toBe('false');
    const single = dialog.getByRole('img', { name: 'checker.png', exact: true });
    await expect
      .poll(() => single.evaluate((img) => (img as HTMLImageElement).naturalWidth))
      .toBe(1024);

    await toggle.click();
    expect(await toggle.getAttribute('aria-pressed')).toBe('true');
    const tiled = dialog.getByRole('img', { name: SEAMLESS_TEXTS.tiledImage('checker.png') });
    await tiled.waitFor();
    expect(await single.isVisible()).toBe(false);
    const box = await tiled.boundingBox();
    expect(box).not.toBeNull();
    // Square image, square repeat.
    expect(Math.abs((box?.width ?? 0) - (box?.height ?? 1))).toBeLessThan(2);

    const shot = await tiled.screenshot();
    // The centre of each of the 6×6 squares.
    const centres = [1, 3, 5, 7, 9, 11].map((twelfth) => twelfth / 12);
    const seen = [];
    for (const y of centres)
      seen.push(
        await colourAt(
          shot,
          centres.map((x) => [x, y] as const),
        ),
      );
    const expected = centres.map((_, row) =>
      centres.map((__, column) => ((row + column) % 2 === 0 ? 'red' : 'blue')),
    );
    expect(seen).toEqual(expected);

    await toggle.click();
    expect(await toggle.getAttribute('aria-pressed')).toBe('false');
    await tiled.waitFor({ state: 'detached' });
    expect(await single.isVisible()).toBe(true);
  });
});
