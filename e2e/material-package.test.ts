import { MATERIAL_MAPS_TEXTS, MATERIAL_TEXTS } from '@tessera/contract';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withPngText } from '../server/src/imaging/png-text.js';
import { bricksPng } from '../server/src/testing/http.js';
import { browserMissing, launchBrowser } from './support/browser.js';
import { startViewerPage, type ViewerPage } from './support/material-viewer-page.js';
import type { ViewerResult } from './support/material-viewer.js';
import { refreshOverMqtt } from './support/seed.js';
import { startServer, type RunningServer } from './support/server.js';
import { openPage, signIn, userFolder } from './support/session.js';

/**
 * The material package (issue 26, part 3) end to end: maps made through the app, "Download
 * material" saved as a person's browser saves it, then the package's `.glb` (GLTFLoader) and
 * `.mtlx` (MaterialXLoader) drawn by three.js in Chromium on a page of the test's own.
 * `DOCS_PICTURE=1` also writes both renders side by side to docs/images/material-package.png.
 */

const SIZE = 1024;

/** Bricks and mortar of the Square format (HD sizes 30x30 to 120x120), seamless. */
async function texturePng(): Promise<Buffer> {
  const metadata = { latent_width: SIZE, latent_height: SIZE, seamless: true, kseed: 9 };
  return withPngText(await bricksPng(SIZE, SIZE, 64), 'metadata', JSON.stringify(metadata));
}

/** Each channel's share of a colour (r, g, b summing to 1): its hue, whatever the light. */
const chroma = (colour: number[]) => {
  const total = colour.reduce((a, b) => a + b, 0) || 1;
  return colour.map((c) => c / total);
};

/** What the canvas shows: the share of lit pixels, how many colours, and their mean colour. */
async function drawn(png: Buffer) {
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const colours = new Set<number>();
  let [red, green, blue, lit] = [0, 0, 0, 0];
  for (let i = 0; i < data.length; i += 3) {
    const [r = 0, g = 0, b = 0] = data.subarray(i, i + 3);
    colours.add((r << 16) | (g << 8) | b);
    // The background is black: a lit pixel is the tile.
    if (r + g + b <= 30) continue;
    lit++;
    red += r;
    green += g;
    blue += b;
  }
  const mean = [red, green, blue].map((sum) => sum / Math.max(1, lit));
  return { share: lit / (info.width * info.height), colours: colours.size, mean };
}

describe.skipIf(browserMissing)('the material package in three.js', () => {
  let server: RunningServer;
  let browser: Browser;
  let work: string;
  let viewer: ViewerPage | undefined;

  beforeAll(async () => {
    server = await startServer({ BUILTIN_UPSCALER: 'lanczos', JOB_CONCURRENCY: '1' });
    const folder = userFolder(server, 'admin', 'ld');
    await fs.mkdir(folder, { recursive: true });
    await fs.writeFile(path.join(folder, 'bricks.png'), await texturePng());
    await refreshOverMqtt(server, { username: 'admin', password: server.adminPassword });
    browser = await launchBrowser();
    work = await fs.mkdtemp(path.join(os.tmpdir(), 'tessera-material-'));
  });
  afterAll(async () => {
    await viewer?.stop();
    await browser?.close();
    await server?.stop();
    if (work) await fs.rm(work, { recursive: true, force: true });
  });

  it('downloads the material, and its .glb and .mtlx draw the tile in its colour', async () => {
    const page = await openPage(browser, server, { acceptDownloads: true });
    await signIn(page, 'admin', server.adminPassword);
    await page.getByRole('button', { name: 'bricks.png', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'bricks.png' });
    const section = dialog.getByRole('region', { name: MATERIAL_MAPS_TEXTS.heading });
    await section.getByRole('button', { name: MATERIAL_MAPS_TEXTS.generate }).click();
    await section
      .getByRole('list', { name: MATERIAL_MAPS_TEXTS.files })
      .waitFor({ timeout: 60_000 });

    // The standard preset, on a tile of 60 x 60 cm.
    await section.getByLabel(MATERIAL_TEXTS.preset).selectOption('standard');
    await section.getByLabel(MATERIAL_TEXTS.tileSize).selectOption('60x60');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      section.getByRole('link', { name: MATERIAL_TEXTS.download }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('bricks_ld_material.zip');
    const zip = path.join(work, 'material.zip');
    await download.saveAs(zip);
    await page.context().close();
    const files = path.join(work, 'files');
    execFileSync('unzip', ['-q', zip, '-d', files]);
    expect((await fs.readdir(files)).sort()).toEqual([
      'README.txt',
      'bricks_ld.glb',
      'bricks_ld.mtlx',
      'bricks_ld_ao.png',
      'bricks_ld_arm.png',
      'bricks_ld_diff.png',
      'bricks_ld_disp.png',
      'bricks_ld_nor_dx.png',
      'bricks_ld_nor_gl.png',
      'bricks_ld_rough.png',
    ]);

    // README.txt speaks the interface's language: Spanish here, as the browser is.
    const readme = await fs.readFile(path.join(files, 'README.txt'), 'utf8');
    expect(readme).toContain('60 x 60 cm (0,6 x 0,6 m, ancho x alto), tamaño 60x60');

    const { channels } = await sharp(path.join(files, 'bricks_ld_diff.png')).stats();
    const base = chroma(channels.slice(0, 3).map((c) => c.mean));
    viewer = await startViewerPage(files);
    const view = await browser.newPage();
    const errors: string[] = [];
    view.on('pageerror', (err) => errors.push(err.message));
    await view.goto(viewer.url);
    const canvas = view.getByRole('img', { name: 'Material' });
    const renders: Buffer[] = [];
    for (const which of ['glb', 'mtlx'] as const) {
      const result: ViewerResult = await view.evaluate(
        (kind) => window.showMaterial('bricks_ld', kind),
        which,
      );
      console.info(`${which}: ${JSON.stringify(result)}`);
      // WebGPU where Chromium has it, else three.js's WebGL 2 fallback (headless here).
      expect(['WebGPU', 'WebGL2']).toContain(result.backend);
      expect(result.warnings).toEqual([]);
      expect(result.material).toMatch(which === 'glb' ? /bricks_ld$/ : /M_bricks_ld$/);
      // The tile is 60 x 60 cm in three.js's metres, flat.
      expect(result.size.map((side) => Number(side.toFixed(4)))).toEqual([0.6, 0.6, 0]);

      const shot = await canvas.screenshot();
      renders.push(shot);
      const seen = await drawn(shot);
      console.info(`${which} canvas: ${JSON.stringify(seen)}`);
      // Not blank: the tile fills most of the view, lit, in many shades…
      expect(seen.share).toBeGreaterThan(0.5);
      expect(seen.colours).toBeGreaterThan(200);
      // …of the texture's colours: the hue of the lit tile is the base colour's.
      chroma(seen.mean).forEach((share, channel) =>
        expect(Math.abs(share - (base[channel] ?? 0))).toBeLessThan(0.04),
      );
    }
    expect(errors).toEqual([]);
    if (process.env['DOCS_PICTURE'] === '1') {
      const leaning = [];
      for (const which of ['glb', 'mtlx'] as const) {
        await view.evaluate((kind) => window.showMaterial('bricks_ld', kind, 0.9), which);
        leaning.push(await canvas.screenshot());
      }
      await writeDocsPicture([...renders, ...leaning]);
    }
  }, 120_000);
});

/**
 * The renders in a row for docs/materials.md: the `.glb` and the `.mtlx` facing the camera, then
 * both leaning back under a raking light.
 */
async function writeDocsPicture(renders: Buffer[]): Promise<void> {
  const { width = 0, height = 0 } = await sharp(renders[0]).metadata();
  const gap = 8;
  await sharp({
    create: {
      width: renders.length * (width + gap) - gap,
      height,
      channels: 3,
      background: '#ffffff',
    },
  })
    .composite(renders.map((input, i) => ({ input, left: i * (width + gap), top: 0 })))
    .png()
    .toFile(new URL('../docs/images/material-package.png', import.meta.url).pathname);
}
