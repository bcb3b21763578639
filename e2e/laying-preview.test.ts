import fs from 'node:fs/promises';
import type { Browser, Locator, Page } from 'playwright-core';
import { DIALOG_TEXTS, MATERIAL_MAPS_TEXTS, seriesMetadata, TEXTS } from '@tessera/contract';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { withPngText } from '../server/src/imaging/png-text.js';
import { browserMissing, launchBrowser } from './support/browser.js';
import { refreshOverMqtt, seedLdImages } from './support/seed.js';
import { startServer, type RunningServer } from './support/server.js';
import { openPage, signIn, userFolder } from './support/session.js';

/**
 * The laying preview (issue 25, parts 5 and 6) against the real server: an LD image laid as a
 * floor, drawn flat and in 3D, redrawn as the pattern, the joint and the seed change, and
 * exported as a PNG of the chosen width.
 */

const WIDTH = 1448;
const HEIGHT = 724;

/** A Rectangle image whose halves differ, so a picture turned 180° shows. */
async function rectanglePng(): Promise<Buffer> {
  const pixels = Buffer.alloc(WIDTH * HEIGHT * 3);
  for (let y = 0; y < HEIGHT; y++) {
    for (let x = 0; x < WIDTH; x++) {
      const v = Math.round(60 + (150 * x) / WIDTH + 30 * Math.sin((2 * Math.PI * y) / HEIGHT));
      pixels.set([v, Math.round(v * 0.8), Math.round(255 - v * 0.7)], (y * WIDTH + x) * 3);
    }
  }
  const png = await sharp(pixels, { raw: { width: WIDTH, height: HEIGHT, channels: 3 } })
    .png()
    .toBuffer();
  const metadata = { latent_width: WIDTH, latent_height: HEIGHT, seamless: true, kseed: 9 };
  return withPngText(png, 'metadata', JSON.stringify(metadata));
}

const FACE_COLOURS = ['#d02020', '#20b040', '#2040d0'] as const;

/** Share of the plan's pixels near each colour. */
function colourShares(plan: Locator, colours: readonly string[]): Promise<number[]> {
  return plan.evaluate((node, wanted) => {
    const canvas = node as HTMLCanvasElement;
    const context = canvas.getContext('2d');
    if (!context || canvas.width === 0) return wanted.map(() => 0);
    const { data } = context.getImageData(0, 0, canvas.width, canvas.height);
    const targets = wanted.map((hex) => [1, 3, 5].map((at) => parseInt(hex.slice(at, at + 2), 16)));
    const counts = wanted.map(() => 0);
    for (let i = 0; i < data.length; i += 4) {
      targets.forEach(([r = 0, g = 0, b = 0], k) => {
        const near =
          Math.abs((data[i] ?? 0) - r) +
          Math.abs((data[i + 1] ?? 0) - g) +
          Math.abs((data[i + 2] ?? 0) - b);
        if (near < 24) counts[k] = (counts[k] ?? 0) + 1;
      });
    }
    return counts.map((count) => (count * 4) / data.length);
  }, colours);
}

interface CanvasPixels {
  hash: number;
  /** Distinct colours, in steps of 16 per channel. */
  colours: number;
  /** Share of pixels unlike the canvas's dark background (#1d1f24). */
  drawn: number;
}

/** Reads the plan canvas's own pixels in the page (the pictures are same-origin: readable). */
function planPixels(plan: Locator): Promise<CanvasPixels> {
  return plan.evaluate((node) => {
    const canvas = node as HTMLCanvasElement;
    const context = canvas.getContext('2d');
    if (!context || canvas.width === 0) return { hash: 0, colours: 0, drawn: 0 };
    const { data } = context.getImageData(0, 0, canvas.width, canvas.height);
    let hash = 2166136261;
    const colours = new Set<number>();
    let drawn = 0;
    for (let i = 0; i < data.length; i += 4) {
      const [r = 0, g = 0, b = 0] = [data[i], data[i + 1], data[i + 2]];
      hash = Math.imul(hash ^ r ^ (g << 8) ^ (b << 16), 16777619) >>> 0;
      colours.add(((r >> 4) << 8) | ((g >> 4) << 4) | (b >> 4));
      if (Math.abs(r - 0x1d) + Math.abs(g - 0x1f) + Math.abs(b - 0x24) > 24) drawn++;
    }
    return { hash, colours: colours.size, drawn: (drawn * 4) / data.length };
  });
}

/** Share of the 3D view's pixels that differ from its background (its top-left corner's). */
async function drawnShare(view: Locator): Promise<number> {
  const shot = await view.screenshot();
  const { data, info } = await sharp(shot).raw().toBuffer({ resolveWithObject: true });
  const at = (i: number) => data[i] ?? 0;
  let drawn = 0;
  for (let i = 0; i < data.length; i += info.channels) {
    const difference =
      Math.abs(at(i) - 0x1d) + Math.abs(at(i + 1) - 0x1f) + Math.abs(at(i + 2) - 0x24);
    if (difference > 24) drawn++;
  }
  return drawn / (info.width * info.height);
}

describe.skipIf(browserMissing)('the laying preview of an LD image', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    server = await startServer({ JOB_CONCURRENCY: '1' });
    const admin = { username: 'admin', password: server.adminPassword };
    const folder = userFolder(server, 'admin', 'ld');
    await fs.mkdir(folder, { recursive: true });
    await fs.writeFile(`${folder}/floor.png`, await rectanglePng());
    await refreshOverMqtt(server, admin);
    // A series of three Square faces, plain red, green and blue, as its metadata says.
    await seedLdImages(
      server,
      admin,
      FACE_COLOURS.map((color, i) => ({
        filename: `tiles-7c1d-f${i + 1}.png`,
        width: 256,
        height: 256,
        color,
        metadata: {
          latent_width: 1024,
          latent_height: 1024,
          ...seriesMetadata({ seriesId: 'tiles-7c1d', face: i + 1, faces: 3 }),
        },
      })),
    );
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });
  beforeEach(async () => {
    page = await openPage(browser, server, {
      acceptDownloads: true,
      viewport: { width: 1400, height: 1000 },
    });
    await signIn(page, 'admin', server.adminPassword);
  });
  afterEach(() => page.context().close());

  it('draws the floor flat and in 3D, redraws it on every change, and exports its PNG', async () => {
    await page.getByRole('button', { name: 'floor.png', exact: true }).click();
    const details = page.getByRole('dialog', { name: 'floor.png' });
    await details.getByRole('button', { name: TEXTS.layingPreviewButton }).click();
    const dialog = page.getByRole('dialog', { name: TEXTS.layingPreviewTitle('floor.png') });
    await dialog.waitFor();
    await expect(dialog.getByText(TEXTS.layingFacesNote(1)).isVisible()).resolves.toBe(true);

    // A Rectangle image: its common size and a stack grid to start with.
    const plan = dialog.getByRole('img', { name: TEXTS.layingPlan });
    await expect.poll(() => plan.getAttribute('data-state'), { timeout: 30_000 }).toBe('drawn');
    expect(await dialog.getByLabel(TEXTS.layingTileSize).inputValue()).toBe('60x120');
    expect(await dialog.getByLabel(TEXTS.layingPattern).inputValue()).toBe('stack');
    const stack = await planPixels(plan);
    expect(stack.colours).toBeGreaterThan(8);
    expect(stack.drawn).toBeGreaterThan(0.95);

    const changed = async (from: CanvasPixels) => {
      await expect
        .poll(async () => (await planPixels(plan)).hash, { timeout: 15_000 })
        .not.toBe(from.hash);
      const now = await planPixels(plan);
      expect(now.colours).toBeGreaterThan(8);
      return now;
    };

    await dialog
      .getByLabel(TEXTS.layingPattern)
      .selectOption({ label: TEXTS.layingPatterns.herringbone });
    const herringbone = await changed(stack);
    await dialog.getByLabel(TEXTS.layingJoint).fill('12');
    const wideJoint = await changed(herringbone);

    // With half turns allowed, the seed decides which tiles are turned.
    await dialog
      .getByLabel(TEXTS.layingRotation)
      .selectOption({ label: TEXTS.layingRotations.half });
    const turned = await changed(wideJoint);
    await dialog.getByLabel(TEXTS.layingSeed).fill('2');
    const seedTwo = await changed(turned);
    await dialog.getByRole('button', { name: TEXTS.layingNewSeed }).click();
    await changed(seedTwo);
    await dialog.getByLabel(TEXTS.layingSeed).fill('2');
    await expect
      .poll(async () => (await planPixels(plan)).hash, { timeout: 15_000 })
      .toBe(seedTwo.hash);

    // The 3D room draws its floor (WebGL on the browser's software renderer).
    const room = dialog.getByRole('img', { name: TEXTS.layingFloor3d });
    await expect.poll(() => room.getAttribute('data-state'), { timeout: 30_000 }).toBe('drawn');
    await expect.poll(() => drawnShare(room), { timeout: 15_000 }).toBeGreaterThan(0.3);

    // The PNG export, at the chosen width, the room's proportions (4 × 3 m).
    await dialog.getByLabel(TEXTS.layingExportWidth).selectOption('2000');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      dialog.getByRole('button', { name: TEXTS.layingExportPng }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('floor_laying_herringbone_60x120_2000px.png');
    const saved = await fs.readFile(await download.path());
    expect(saved.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect([saved.readUInt32BE(16), saved.readUInt32BE(20)]).toEqual([2000, 1500]);
    const stats = await sharp(saved).stats();
    expect(stats.channels.some((channel) => channel.stdev > 10)).toBe(true);

    // Closing it leaves the details open beneath.
    await dialog.getByRole('button', { name: DIALOG_TEXTS.close }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await details.isVisible()).toBe(true);
  }, 180_000);

  it('lays every face of a series at random: the seed changes which face lies where', async () => {
    await page.getByRole('button', { name: 'tiles-7c1d-f2.png', exact: true }).click();
    const details = page.getByRole('dialog', { name: 'tiles-7c1d-f2.png' });
    await details.getByRole('button', { name: TEXTS.layingPreviewButton }).click();
    const dialog = page.getByRole('dialog', {
      name: TEXTS.layingPreviewTitle('tiles-7c1d-f2.png'),
    });
    await dialog.getByText(TEXTS.layingFacesNote(3)).waitFor();
    const plan = dialog.getByRole('img', { name: TEXTS.layingPlan });
    await expect.poll(() => plan.getAttribute('data-state'), { timeout: 30_000 }).toBe('drawn');

    // Square tiles: 60x60, and quarter turns are offered.
    expect(await dialog.getByLabel(TEXTS.layingTileSize).inputValue()).toBe('60x60');
    const options = await dialog
      .getByLabel(TEXTS.layingRotation)
      .locator('option')
      .allTextContents();
    const { none, half, quarter } = TEXTS.layingRotations;
    expect(options).toEqual([none, half, quarter]);
    await dialog
      .getByLabel(TEXTS.layingPattern)
      .selectOption({ label: TEXTS.layingPatterns.diagonal });

    // Each face covers a fair part of the 4 × 3 m floor (about a third each).
    const shares = async () => colourShares(plan, FACE_COLOURS);
    await expect
      .poll(async () => Math.min(...(await shares())), { timeout: 15_000 })
      .toBeGreaterThan(0.15);
    const first = await planPixels(plan);
    await dialog.getByLabel(TEXTS.layingSeed).fill('77');
    await expect
      .poll(async () => (await planPixels(plan)).hash, { timeout: 15_000 })
      .not.toBe(first.hash);
    expect(Math.min(...(await shares()))).toBeGreaterThan(0.15);
  }, 120_000);

  it('lays the material maps on the 3D floor once the image has them', async () => {
    await page.getByRole('button', { name: 'floor.png', exact: true }).click();
    const details = page.getByRole('dialog', { name: 'floor.png' });
    const maps = details.getByRole('region', { name: MATERIAL_MAPS_TEXTS.heading });
    await maps.getByRole('button', { name: MATERIAL_MAPS_TEXTS.generate }).click();
    await maps.getByRole('list', { name: MATERIAL_MAPS_TEXTS.files }).waitFor({ timeout: 90_000 });

    await details.getByRole('button', { name: TEXTS.layingPreviewButton }).click();
    const dialog = page.getByRole('dialog', { name: TEXTS.layingPreviewTitle('floor.png') });
    const room = dialog.getByRole('img', { name: TEXTS.layingFloor3d });
    await expect.poll(() => room.getAttribute('data-maps'), { timeout: 30_000 }).toBe('on');
    await expect.poll(() => room.getAttribute('data-state'), { timeout: 30_000 }).toBe('drawn');
    await expect.poll(() => drawnShare(room), { timeout: 15_000 }).toBeGreaterThan(0.3);
  }, 180_000);
});
