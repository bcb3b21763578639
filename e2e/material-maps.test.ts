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
 * generate them, download one, and see the material drawn by WebGL on the 3D preview.
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
  const shot = await page.getByRole('img', { name: '3D preview of the material' }).screenshot();
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
    const section = dialog.getByRole('region', { name: 'Material maps' });
    await section.getByRole('button', { name: 'Generate maps' }).click();

    // Each map downloads under its own name, at the image's size.
    const files = section.getByRole('list', { name: 'Map files' });
    await files.waitFor({ timeout: 60_000 });
    expect(await files.getByRole('link').allTextContents()).toEqual([
      'Height',
      'Normal (OpenGL)',
      'Normal (DirectX)',
      'Roughness',
      'Ambient occlusion',
    ]);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      files.getByRole('link', { name: 'Normal (OpenGL)' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('waves_ld_normal-opengl.png');
    const saved = await fs.readFile(await download.path());
    const meta = await sharp(saved).metadata();
    expect([meta.width, meta.height, meta.channels]).toEqual([SIZE, SIZE, 3]);
    expect(await section.getByRole('button', { name: 'Generate maps again' }).isEnabled()).toBe(
      true,
    );

    // The preview drew once every texture loaded: most of the canvas is lit material.
    const canvas = dialog.getByRole('img', { name: '3D preview of the material' });
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
});
