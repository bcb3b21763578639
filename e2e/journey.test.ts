import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  GENERATE_TEXTS,
  HD_NOTIFICATION_TEXTS,
  hdTargetSize,
  OUTPUT_TEXTS,
  TAG_TEXTS,
} from '@tessera/contract';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINE_NAMES } from '../server/src/engines/engine.js';
import {
  startComfyStandIn,
  type ComfyStandIn,
} from '../server/src/testing/comfyui-stand-in/index.js';
import { browserMissing, launchBrowser } from './support/browser.js';
import { grainyPhoto } from './support/reference.js';
import { startServer, type RunningServer } from './support/server.js';
import { signIn } from './support/session.js';
import { openScreen } from './support/screen.js';

/**
 * The whole journey of SPEC §2 and §4 as one person lives it: sign in, make a tag, generate a
 * tagged texture from a reference, find it in the Dashboard, order it in HD, follow the toast,
 * and download the HD file. Once on the embedded defaults (the builtin engine with the real ESRGAN
 * upscaler), once with ENGINE=comfyui against the stand-in that speaks ComfyUI's API.
 */
describe.skipIf(browserMissing).each(ENGINE_NAMES)('the journey on the %s engine', (engine) => {
  let comfy: ComfyStandIn | undefined;
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  let folder: string;
  const alerts: string[] = [];

  beforeAll(async () => {
    if (engine === 'comfyui') comfy = await startComfyStandIn({ stepDelayMs: 20 });
    server = await startServer(comfy ? { ENGINE: 'comfyui', COMFYUI_URLS: comfy.url } : {});
    browser = await launchBrowser();
    folder = await fs.mkdtemp(path.join(os.tmpdir(), 'tessera-journey-'));
    await fs.writeFile(
      path.join(folder, 'limestone.jpg'),
      await grainyPhoto({
        width: 200,
        height: 150,
        base: [140, 120, 95],
        grain: 70,
        format: 'jpeg',
      }),
    );
    const context = await browser.newContext({
      baseURL: server.url,
      acceptDownloads: true,
      viewport: { width: 1280, height: 900 },
    });
    page = await context.newPage();
    page.on('dialog', (dialog) => {
      alerts.push(dialog.message());
      void dialog.accept();
    });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await comfy?.close();
    if (folder) await fs.rm(folder, { recursive: true, force: true });
  });

  it('[L2][T1][G3][G15][D9][M3][O3] from a reference photo to a downloaded HD tile', async () => {
    // Sign in with the first-start administrator the server printed.
    await signIn(page, 'admin', server.adminPassword);

    // A tag for the day's work, made in the Dashboard's Tags panel.
    const tags = page.getByRole('region', { name: 'Tags' });
    await tags.getByRole('button', { name: TAG_TEXTS.newTag }).click();
    const newTag = page.getByRole('dialog', { name: TAG_TEXTS.newTag });
    await newTag.getByLabel(TAG_TEXTS.name).fill('Limestone');
    await newTag.getByRole('button', { name: TAG_TEXTS.create }).click();
    await newTag.waitFor({ state: 'detached' });
    await tags.getByRole('button', { name: 'Limestone', exact: true }).waitFor();

    // Generate one seamless texture from the photo, tagged Limestone.
    await openScreen(page, 'Generate');
    await page.waitForURL('**/generate');
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: /imagen de referencia/ }).click();
    await (await chooser).setFiles(path.join(folder, 'limestone.jpg'));
    await page
      .getByRole('button', { name: GENERATE_TEXTS.changeReference('limestone.jpg') })
      .waitFor();
    await page.getByLabel('Positive Prompt').fill('honed limestone floor tile, soft fossils');
    await page.getByLabel('Negative Prompt').fill('text, watermark');
    await page.getByRole('switch', { name: 'Seamless' }).check();
    await page.getByText('Tags', { exact: true }).click();
    await page.getByRole('checkbox', { name: 'Limestone' }).check();
    const generate = page.getByRole('button', { name: /^Generat/ });
    await generate.click();
    await expect.poll(() => generate.textContent()).toMatch(/^Generating\.\.\. \(\d+%\)$/);
    await expect.poll(() => generate.textContent(), { timeout: 60_000 }).toBe('Generate');
    expect(alerts).toEqual([]);
    const made = await page
      .getByRole('list', { name: GENERATE_TEXTS.results })
      .getByRole('button')
      .evaluateAll((buttons) => buttons.map((b) => b.getAttribute('aria-label') ?? ''));
    expect(made).toHaveLength(1);
    const ldName = (made[0] ?? '').replace(new RegExp(`^${GENERATE_TEXTS.load('')}`), '');
    expect(ldName).toMatch(/\.png$/);

    // The Dashboard shows it under its tag; its details show what it was made from.
    await openScreen(page, 'Dashboard');
    await page.waitForURL('**/dashboard');
    await tags.getByRole('button', { name: 'Limestone', exact: true }).click();
    const tile = page.getByRole('button', { name: ldName, exact: true });
    await tile.click();
    const details = page.getByRole('dialog', { name: ldName });
    await details.waitFor();
    const field = (label: string) => details.locator(`dt:text-is("${label}") + dd`).textContent();
    expect(await field('Positive prompt')).toBe('honed limestone floor tile, soft fossils');
    expect(await field('Seed')).toBe('10');
    await expect
      .poll(() =>
        details.getByRole('list', { name: 'Tags' }).getByRole('listitem').allTextContents(),
      )
      .toEqual(['Limestone']);

    // Order it at 30x30 cm; the modal closes and the toast follows the job to its end.
    await details.getByLabel('Output Size').selectOption('30x30');
    await details.getByRole('button', { name: 'Generate HD' }).click();
    await details.waitFor({ state: 'detached' });
    const toast = page.getByRole('status', { name: HD_NOTIFICATION_TEXTS.label }).locator('.toast');
    await toast
      .getByText(`HD image generation for ${ldName} finished.`)
      .waitFor({ timeout: 120_000 });

    // The HD gallery has it; its details download a file of the physical size's pixels.
    await openScreen(page, 'Output');
    await page.waitForURL('**/output');
    const hdName = ldName.replace(/\.png$/, '_30x30.png');
    await page
      .getByRole('list', { name: OUTPUT_TEXTS.images })
      .getByRole('button', { name: hdName, exact: true })
      .click();
    const hdDetails = page.getByRole('dialog', { name: 'HD Image Details' });
    expect(await hdDetails.locator('dt:text-is("Size") + dd').textContent()).toBe('30x30');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      hdDetails.getByRole('link', { name: 'Download' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(hdName);
    const meta = await sharp(await download.path()).metadata();
    expect({ width: meta.width, height: meta.height }).toEqual(hdTargetSize(1024, 1024, '30x30'));
  }, 240_000);
});
