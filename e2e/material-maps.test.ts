import { MATERIAL_MAPS_TEXTS } from '@tessera/contract';
import fs from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { withPngText } from '../server/src/imaging/png-text.js';
import { browserMissing, launchBrowser } from './support/browser.js';
import { refreshOverMqtt } from './support/seed.js';
import { startServer, type RunningServer } from './support/server.js';
import { openPage, signIn, userFolder } from './support/session.js';

/**
 * PBR material maps (issue 17, part 5) in the LD Image Details modal, against the real server:
 * generate them, download one, and see the material drawn by WebGL on the 3D preview; remake
 * them with the height inverted (issue 26, part 4) and see the height map turn over.
 */

const SIZE = 512;

/** A seamless texture with relief: waves of whole periods, and a tileable grain. */
async function texturePng(): Promise<Buffer> {
  const pixels = Buffer.alloc(SIZE * SIZE * 3);
  for (let y = 0; y < SIZE; y++) {
    for (let x = 0; x < SIZE; x++) {
      const wave = Math.sin((2 * Math.PI * 4 * x) / SIZE) * Math.cos((2 * Math.PI * 4 * y) / SIZE);
      const v = Math.round(130 + 70 * wave + (((x * 31 + y * 17) % 19) - 9));
      pixels.set([v, Math.round(v * 0.75), Math.round(v * 0.55)], (y * SIZE + x) * 3);
    }
  }
  const png = await sharp(pixels, { raw: { width: SIZE, height: SIZE, channels: 3 } })
    .png()
    .toBuffer();
  const metadata = { latent_width: SIZE, latent_height: SIZE, seamless: true, kseed: 5 };
  return withPngText(png, 'metadata', JSON.stringify(metadata));
}

/** Share of the canvas's pixels that differ from its background (its top-left corner's colour). */
async function drawnShare(page: Page): Promise<number> {
  const shot = await page.getByRole('img', { name: MATERIAL_MAPS_TEXTS.preview }).screenshot();
  const { data, info } = await sharp(shot).raw().toBuffer({ resolveWithObject: true });
  const at = (i: number) => data[i] ?? 0;
  let drawn = 0;
  for (let i = 0; i < data.length; i += info.channels) {
    const difference =
      Math.abs(at(i) - at(0)) + Math.abs(at(i + 1) - at(1)) + Math.abs(at(i + 2) - at(2));
    if (difference > 24) drawn++;
  }
  return drawn / (info.width * info.height);
}

/**
 * The grey of each pixel of a screenshot of the height map (its first channel), within a margin
 * that leaves out the rounded corners and the page behind them.
 */
async function greyPixels(shot: Buffer): Promise<number[]> {
  const { width = 0, height = 0 } = await sharp(shot).metadata();
  const margin = Math.round(Math.min(width, height) * 0.1);
  const { data, info } = await sharp(shot)
    .extract({ left: margin, top: margin, width: width - 2 * margin, height: height - 2 * margin })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return Array.from({ length: info.width * info.height }, (_, i) => data[i * info.channels] ?? 0);
}

/** Pearson's correlation of two equally long lists: −1 when one is the other turned over. */
function correlation(a: number[], b: number[]): number {
  const mean = (v: number[]) => v.reduce((sum, x) => sum + x, 0) / v.length;
  const [ma, mb] = [mean(a), mean(b)];
  let ab = 0;
  let aa = 0;
  let bb = 0;
  a.forEach((x, i) => {
    const y = b[i] ?? mb;
    ab += (x - ma) * (y - mb);
    aa += (x - ma) ** 2;
    bb += (y - mb) ** 2;
  });
  return ab / Math.sqrt(aa * bb);
}

function meanDifference(a: number[], b: number[]): number {
  if (a.length !== b.length) return Infinity;
  return a.reduce((sum, v, i) => sum + Math.abs(v - (b[i] ?? 0)), 0) / a.length;
}

describe.skipIf(browserMissing)('material maps in the Image Details modal', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  let admin: { username: string; password: string };

  beforeAll(async () => {
    server = await startServer({ BUILTIN_UPSCALER: 'lanczos', JOB_CONCURRENCY: '1' });
    admin = { username: 'admin', password: server.adminPassword };
    const folder = userFolder(server, 'admin', 'ld');
    await fs.mkdir(folder, { recursive: true });
    await fs.writeFile(`${folder}/waves.png`, await texturePng());
    await refreshOverMqtt(server, admin);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });
  beforeEach(async () => {
    page = await openPage(browser, server, { acceptDownloads: true });
    await signIn(page, admin.username, admin.password);
  });
  afterEach(() => page.context().close());

  it('generates the maps, downloads one, and draws the material in 3D; dragging turns it', async () => {
    await page.getByRole('button', { name: 'waves.png', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'waves.png' });
    await dialog.waitFor();
    const section = dialog.getByRole('region', { name: MATERIAL_MAPS_TEXTS.heading });
    await section.getByRole('button', { name: MATERIAL_MAPS_TEXTS.generate }).click();

    // Each map downloads under its own name, at the image's size.
    const files = section.getByRole('list', { name: MATERIAL_MAPS_TEXTS.files });
    await files.waitFor({ timeout: 60_000 });
    expect(await files.getByRole('link').allTextContents()).toEqual([
      'Altura',
      'Normal (OpenGL)',
      'Normal (DirectX)',
      'Rugosidad',
      'Oclusión ambiental',
    ]);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      files.getByRole('link', { name: 'Normal (OpenGL)' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('waves_ld_normal-opengl.png');
    const saved = await fs.readFile(await download.path());
    const meta = await sharp(saved).metadata();
    expect([meta.width, meta.height, meta.channels]).toEqual([SIZE, SIZE, 3]);
    expect(
      await section.getByRole('button', { name: MATERIAL_MAPS_TEXTS.remake }).isEnabled(),
    ).toBe(true);

    // The preview drew once every texture loaded: most of the canvas is lit material.
    const canvas = dialog.getByRole('img', { name: MATERIAL_MAPS_TEXTS.preview });
    await expect.poll(() => canvas.getAttribute('data-state'), { timeout: 30_000 }).toBe('drawn');
    await expect.poll(() => drawnShare(page), { timeout: 10_000 }).toBeGreaterThan(0.2);
    const before = await canvas.screenshot();

    // A drag across it turns the view, as a person looks around the material.
    const box = await canvas.boundingBox();
    if (!box) throw new Error('The preview is not shown');
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 + 120, box.y + box.height / 2 + 30, { steps: 8 });
    await page.mouse.up();
    await expect.poll(async () => (await canvas.screenshot()).equals(before)).toBe(false);
    expect(await drawnShare(page)).toBeGreaterThan(0.2);
  }, 120_000);

  it('remakes the maps with the height inverted: the height map shown turns over', async () => {
    await page.getByRole('button', { name: 'waves.png', exact: true }).click();
    const section = page
      .getByRole('dialog', { name: 'waves.png' })
      .getByRole('region', { name: MATERIAL_MAPS_TEXTS.heading });
    const invert = section.getByRole('checkbox', { name: MATERIAL_MAPS_TEXTS.invertHeight });
    const heightMap = section.getByRole('img', { name: MATERIAL_MAPS_TEXTS.heightMap });
    // The maps as first made (by the test before, or now when run alone): not inverted.
    const { generate, remake } = MATERIAL_MAPS_TEXTS;
    const order = section.getByRole('button', { name: new RegExp(`^(${generate}|${remake})$`) });
    if ((await order.textContent()) === generate) await order.click();
    await heightMap.waitFor({ timeout: 60_000 });
    expect(await invert.isChecked()).toBe(false);
    await expect.poll(() => heightMap.evaluate((img: HTMLImageElement) => img.complete)).toBe(true);
    const plain = await greyPixels(await heightMap.screenshot());

    await invert.check();
    await section.getByRole('button', { name: MATERIAL_MAPS_TEXTS.remake }).click();
    await expect
      .poll(async () => meanDifference(await greyPixels(await heightMap.screenshot()), plain), {
        timeout: 60_000,
      })
      .toBeGreaterThan(20);
    // Turned over, pixel by pixel: where it was light it is dark, and the other way round.
    const inverted = await greyPixels(await heightMap.screenshot());
    expect(correlation(inverted, plain)).toBeLessThan(-0.9);
    expect(await invert.isChecked()).toBe(true);
    expect(
      await section.getByRole('button', { name: MATERIAL_MAPS_TEXTS.remake }).isEnabled(),
    ).toBe(true);
  }, 120_000);
});
