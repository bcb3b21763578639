import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  API_ROUTES,
  GENERATE_TEXTS,
  REFERENCE_PREP_TEXTS,
  REFERENCE_WARNING_TEXTS,
  type InputImage,
} from '@tessera/contract';
import type { Browser, Locator, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  floorCamera,
  floorPhoto,
  tileFloor,
  withSideLight,
} from '../server/src/testing/perspective-floor.js';
import { browserMissing, launchBrowser } from './support/browser.js';
import { startServer, type RunningServer } from './support/server.js';
import { collectAlerts, openPage, signIn } from './support/session.js';
import { openScreen } from './support/screen.js';

/**
 * References that cannot work (issue 27, part 5) as a person meets them: a photo of a tiled floor
 * taken at an angle is chosen on Generate, the warning says so, the preparation step straightens
 * it (four corners dragged onto tile corners) and takes its lighting out (before/after), the
 * prepared reference replaces the chosen one, and a texture is generated from it.
 * `DOCS_PICTURE=1` also saves the warning and the step for docs/engines.md.
 */

const PICTURES = {
  warning: new URL('../docs/images/reference-warning.png', import.meta.url),
  corners: new URL('../docs/images/reference-prep-corners.png', import.meta.url),
  lighting: new URL('../docs/images/reference-prep-lighting.png', import.meta.url),
};

/** A person's photo of a tiled floor: 1.6 m up (tiles of 32 cm), looking 50° down. */
const VIEW = { width: 640, height: 480, pitchDegrees: 50, fovDegrees: 45, cameraHeight: 5 };
/** The 3 × 3 tiles whose outer corners are dragged to: the middles of their joints. */
const TILES = { left: -1.03, right: 2.03, near: 3.03, far: 6.03 };

describe.skipIf(browserMissing)('Generate: a reference that cannot work, prepared', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  let folder: string;

  beforeAll(async () => {
    server = await startServer({ BUILTIN_UPSCALER: 'lanczos' });
    browser = await launchBrowser();
    folder = await fs.mkdtemp(path.join(os.tmpdir(), 'tessera-reference-prep-'));
    // Lit from the right, as by a window: the lighting has something to take out.
    const photo = withSideLight(floorPhoto(tileFloor(), VIEW), 90);
    await sharp(photo.data, { raw: { width: photo.width, height: photo.height, channels: 4 } })
      .removeAlpha()
      .jpeg({ quality: 92 })
      .toFile(path.join(folder, 'kitchen-floor.jpg'));
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    if (folder) await fs.rm(folder, { recursive: true, force: true });
  });

  /** Drags `handle` with the mouse to the picture's pixel `to` of the stage's canvas. */
  async function drag(handle: Locator, canvas: Locator, to: { u: number; v: number }) {
    const from = await handle.boundingBox();
    const box = await canvas.boundingBox();
    if (!from || !box) throw new Error('The handle or the stage is not on the screen');
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    const target = {
      x: box.x + (to.u / VIEW.width) * box.width,
      y: box.y + (to.v / VIEW.height) * box.height,
    };
    await page.mouse.move(target.x, target.y, { steps: 8 });
    await page.mouse.up();
  }

  it('warns of the perspective, straightens it, takes the lighting out and generates from it', async () => {
    page = await openPage(browser, server, { viewport: { width: 1360, height: 900 } });
    const alerts = collectAlerts(page);
    await signIn(page, 'admin', server.adminPassword);
    await openScreen(page, 'Generate');

    // Chosen in the file dialog, as a person does.
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: GENERATE_TEXTS.uploadReference }).click();
    await (await chooser).setFiles(path.join(folder, 'kitchen-floor.jpg'));
    await page
      .getByRole('button', { name: GENERATE_TEXTS.changeReference('kitchen-floor.jpg') })
      .waitFor();
    const warnings = page.getByRole('region', { name: REFERENCE_PREP_TEXTS.warningsTitle });
    await warnings.getByText(REFERENCE_WARNING_TEXTS.perspective).waitFor({ timeout: 20_000 });
    await warnings.getByText(REFERENCE_WARNING_TEXTS.lighting).waitFor();
    if (process.env['DOCS_PICTURE'] === '1') {
      // The upload area and what is said beside it, the pointer away from them.
      await page.mouse.move(0, 0);
      const area = await page.getByTestId('upload-area').boundingBox();
      const advice = await page.locator('.reference-advice').boundingBox();
      if (!area || !advice) throw new Error('The upload area is not on the screen');
      const bottom = advice.y + advice.height;
      await page.screenshot({
        path: fileURLToPath(PICTURES.warning),
        clip: { x: area.x - 4, y: area.y - 4, width: area.width + 8, height: bottom - area.y + 8 },
      });
    }

    // The step opens on the tool the warning calls for.
    await page.getByRole('button', { name: REFERENCE_PREP_TEXTS.prepare }).click();
    const dialog = page.getByRole('dialog', { name: REFERENCE_PREP_TEXTS.dialogTitle });
    await dialog.waitFor();
    const tools = dialog.getByRole('group', { name: REFERENCE_PREP_TEXTS.tools });
    const perspective = tools.getByRole('button', { name: REFERENCE_PREP_TEXTS.perspective });
    expect(await perspective.getAttribute('aria-pressed')).toBe('true');
    await dialog.getByText(REFERENCE_PREP_TEXTS.size(640, 480)).waitFor();

    // The four corners onto the outer corners of 3 × 3 tiles, where the camera shows them.
    const camera = floorCamera(VIEW);
    const canvas = dialog.getByRole('img', { name: REFERENCE_PREP_TEXTS.working });
    const targets = [
      camera.pictureAt(TILES.left, TILES.far),
      camera.pictureAt(TILES.right, TILES.far),
      camera.pictureAt(TILES.right, TILES.near),
      camera.pictureAt(TILES.left, TILES.near),
    ];
    for (const [index, name] of REFERENCE_PREP_TEXTS.cornerNames.entries()) {
      const handle = dialog.getByRole('button', { name: REFERENCE_PREP_TEXTS.corner(name) });
      await drag(handle, canvas, targets[index] ?? { u: 0, v: 0 });
    }
    if (process.env['DOCS_PICTURE'] === '1') {
      await dialog.screenshot({ path: fileURLToPath(PICTURES.corners) });
    }
    await dialog.getByRole('button', { name: REFERENCE_PREP_TEXTS.apply }).click();
    // Nine tiles seen from above: a square, whatever the foreshortening was.
    const size = dialog.locator('.prep-size');
    await expect.poll(() => size.textContent()).not.toContain('640×480');
    const [width = 0, height = 0] = ((await size.textContent()) ?? '')
      .split(' px')[0]
      ?.split('×')
      .map(Number) ?? [0, 0];
    expect(width / height).toBeGreaterThan(0.9);
    expect(width / height).toBeLessThan(1.1);

    // The lighting taken out by the engine, shown before and after; the after is kept.
    await tools.getByRole('button', { name: REFERENCE_PREP_TEXTS.lighting }).click();
    await dialog.getByRole('button', { name: REFERENCE_PREP_TEXTS.removeLighting }).click();
    for (const side of [REFERENCE_PREP_TEXTS.before, REFERENCE_PREP_TEXTS.after]) {
      const picture = dialog.getByRole('img', { name: side, exact: true });
      await picture.waitFor({ timeout: 20_000 });
      await expect
        .poll(() => picture.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
        .toBe(width);
    }
    const keepAfter = dialog.getByRole('button', { name: REFERENCE_PREP_TEXTS.keepAfter });
    expect(await keepAfter.getAttribute('aria-pressed')).toBe('true');
    if (process.env['DOCS_PICTURE'] === '1') {
      await dialog.screenshot({ path: fileURLToPath(PICTURES.lighting) });
    }

    // The prepared reference replaces the chosen one, checked as any upload is: nothing to warn of.
    await dialog.getByRole('button', { name: REFERENCE_PREP_TEXTS.use }).click();
    await dialog.waitFor({ state: 'detached' });
    await page
      .getByRole('button', { name: GENERATE_TEXTS.changeReference('kitchen-floor-prepared.png') })
      .waitFor();
    await page.getByText(REFERENCE_PREP_TEXTS.checking).waitFor({ state: 'detached' });
    expect(await warnings.count()).toBe(0);

    // And a texture is generated from it.
    await page.getByLabel('Positive Prompt').fill('terracotta floor tiles');
    await page.getByLabel('Negative Prompt').fill('blurry');
    await page.getByRole('button', { name: /^Generat/ }).click();
    await expect
      .poll(
        () =>
          page
            .getByRole('list', { name: GENERATE_TEXTS.results })
            .getByRole('button', { name: new RegExp(`^${GENERATE_TEXTS.load('')}`) })
            .count(),
        { timeout: 45_000 },
      )
      .toBe(1);
    expect(alerts).toEqual([]);
    const inputs = (await (await page.request.get(API_ROUTES.inputs)).json()) as {
      inputs: InputImage[];
    };
    expect(inputs.inputs.map((input) => input.filename)).toEqual([
      expect.stringMatching(/^kitchen-floor-prepared.*\.png$/),
    ]);
    await page.context().close();
  }, 120_000);
});
