import fs from 'node:fs/promises';
import { commandTopic, DIALOG_TEXTS, SEAMLESS_TEXTS } from '@tessera/contract';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { browserMissing, launchBrowser } from './support/browser.js';
import { focusAfterTabs } from './support/screen.js';
import { publishedTo, recordMqttPackets } from './support/mqtt-frames.js';
import { commandOverMqtt, seedLdImages } from './support/seed.js';
import { startServer, type RunningServer } from './support/server.js';
import { openPage, signIn, userFolder } from './support/session.js';

/**
 * The LD Image Details modal and the HD order (SPEC §2, §4; checklist M1–M7, H1, H2), on the
 * Dashboard, against the real server with the fast Lanczos upscaler.
 */

const BRICK_METADATA = {
  input_image_path: 'reference-brick.png',
  cliptextencode_585: 'red brick wall, weathered mortar',
  cliptextencode_716: 'blurry, text, watermark',
  ksampler_cfg: 4.5,
  ksampler_denoise: 0.7,
  ipadapter_weight: 1.2,
  style: 0.35,
  kseed: 987654321,
  latent_width: 1024,
  latent_height: 1024,
  created_at: '2025-02-03T10:00:00.000Z',
};

/**
 * The generate-image payloads `user`'s page publishes, parsed from its WebSocket frames as the
 * broker reads them. Set up before the page signs in, so that the messaging socket it opens
 * meanwhile is watched too.
 */
function recordHdCommands(page: Page, user: string): () => HdCommand[] {
  const packets = recordMqttPackets(page);
  return () =>
    publishedTo(packets(), commandTopic('generate-image', user)).map(
      ({ packet }) => JSON.parse(String((packet as { payload: Buffer }).payload)) as HdCommand,
    );
}

type HdCommand = Record<string, unknown>;

describe.skipIf(browserMissing)('Image Details modal and the HD order', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  /** The HD orders the current page has published so far. */
  let hdCommands: () => HdCommand[];
  let admin: { username: string; password: string };

  beforeAll(async () => {
    server = await startServer({ BUILTIN_UPSCALER: 'lanczos', JOB_CONCURRENCY: '1' });
    admin = { username: 'admin', password: server.adminPassword };
    const inputFolder = userFolder(server, 'admin', 'input');
    await fs.mkdir(inputFolder, { recursive: true });
    await sharp({ create: { width: 96, height: 96, channels: 3, background: '#b5482e' } })
      .png()
      .toFile(`${inputFolder}/reference-brick.png`);
    await seedLdImages(server, admin, [
      {
        filename: 'brick-wall.png',
        width: 1024,
        height: 1024,
        metadata: BRICK_METADATA,
        color: '#9b3b2a',
      },
      {
        filename: 'oak-plank.png',
        width: 2506,
        height: 418,
        metadata: { latent_width: 2506, latent_height: 418, cliptextencode_585: 'oak plank' },
        color: '#8a6f4e',
      },
      {
        filename: 'odd-size.png',
        width: 640,
        height: 480,
        metadata: { latent_width: 640, latent_height: 480 },
        color: '#4e6f8a',
      },
    ]);
    for (const tag of [
      { id: 'tag-brick', name: 'Brick', color: '#aa2200' },
      { id: 'tag-warm', name: 'Warm tones', color: '#ffaa00' },
    ]) {
      await commandOverMqtt(server, admin, 'create-tag', tag);
      await commandOverMqtt(server, admin, 'assign-tag', {
        id: tag.id,
        filename: 'brick-wall.png',
      });
    }
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });
  beforeEach(async () => {
    page = await openPage(browser, server, { acceptDownloads: true });
    hdCommands = recordHdCommands(page, admin.username);
    await signIn(page, admin.username, admin.password);
  });
  afterEach(() => page.context().close());

  async function openDetails(filename: string) {
    // A click on the picture, as a person opens it: the actions never cover it (issue 13).
    await page.getByRole('button', { name: filename, exact: true }).click();
    const dialog = page.getByRole('dialog', { name: filename });
    await dialog.waitFor();
    return dialog;
  }

  const fieldValue = (label: string) =>
    page.getByRole('dialog').locator(`dt:text-is("${label}") + dd`).textContent();

  async function sizeOptions() {
    return page
      .getByRole('dialog')
      .getByLabel('Output Size')
      .locator('option')
      .evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value));
  }

  it('[M1][D9] clicking an image shows its name, reference image, prompts, weights, style × 100, seed and tags', async () => {
    const dialog = await openDetails('brick-wall.png');
    expect(await dialog.getByRole('heading', { name: 'brick-wall.png' }).isVisible()).toBe(true);
    const reference = dialog.getByRole('img', { name: 'Reference image' });
    expect(await reference.getAttribute('src')).toBe('/api/images/input/reference-brick.png');
    await expect
      .poll(() => reference.evaluate((img) => (img as HTMLImageElement).naturalWidth))
      .toBe(96);
    expect(await fieldValue('Positive prompt')).toBe('red brick wall, weathered mortar');
    expect(await fieldValue('Negative prompt')).toBe('blurry, text, watermark');
    // Numbers in the interface's locale: es-ES by default.
    expect(await fieldValue('Imagination weight')).toBe('4,5');
    expect(await fieldValue('Similarity')).toBe('0,7');
    expect(await fieldValue('Prompt adherence')).toBe('1,2');
    expect(await fieldValue('Style weight')).toBe('35');
    expect(await fieldValue('Seed')).toBe('987654321');
    const tags = dialog.getByRole('list', { name: 'Tags' }).getByRole('listitem');
    await expect.poll(() => tags.allTextContents()).toEqual(['Brick', 'Warm tones']);
  });

  it('[M2] Output Size offers the sizes of the image format, and none for an unknown format', async () => {
    await openDetails('brick-wall.png');
    expect(await sizeOptions()).toEqual(['', '30x30', '60x60', '90x90', '100x100', '120x120']);
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });

    await openDetails('oak-plank.png');
    expect(await sizeOptions()).toEqual(['', '120x20']);
    await page.getByRole('button', { name: DIALOG_TEXTS.close }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });

    await openDetails('odd-size.png');
    expect(await sizeOptions()).toEqual(['']);
  });

  it("[M6] Generate HD without a valid size only logs 'Debe seleccionar una opción válida.'", async () => {
    const logged: string[] = [];
    page.on('console', (message) => logged.push(message.text()));
    const dialog = await openDetails('odd-size.png');
    await dialog.getByRole('button', { name: 'Generate HD' }).click();
    await expect.poll(() => logged).toContain('Debe seleccionar una opción válida.');
    expect(await dialog.isVisible()).toBe(true);
    expect(hdCommands()).toEqual([]);
  });

  it('the modal keeps focus from the page behind it and closes with Escape', async () => {
    const dialog = await openDetails('brick-wall.png');
    // The page behind a modal dialog is inert: Tab cycles through the dialog (and the browser's
    // own controls, shown as the body), never onto the gallery.
    expect(await focusAfterTabs(page, dialog, 12)).not.toContain('page');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  });

  it('[M3][M4][M5][H1][H2][M7] Generate HD sends the order and closes; reopened it reads Generating HD... (n%) until the Download HD Image link', async () => {
    let dialog = await openDetails('brick-wall.png');
    // 120x120 of a 1024 px square is 8258 px a side (68 MP): long enough to watch it run.
    await dialog.getByLabel('Output Size').selectOption('120x120');
    await dialog.getByRole('button', { name: 'Generate HD' }).click();
    await dialog.waitFor({ state: 'detached' });

    await expect.poll(() => hdCommands().length).toBe(1);
    const command = hdCommands()[0] ?? {};
    expect(command).toEqual({
      id: expect.any(String),
      user: 'admin',
      image: 'brick-wall.png',
      rescale_factor_cr711: '1.74',
      scale_by_latent707: '1',
      rescale_factor_cr701: '2.24',
      scale_by_image692: '3.6',
      use_fixed_seed: 'true',
      fixed_seed_value: '987654321',
      seed: '987654321',
    });
    expect(Object.values(command).every((value) => typeof value === 'string')).toBe(true);

    dialog = await openDetails('brick-wall.png');
    const busy = dialog.getByRole('button', { name: /^Generating HD\.\.\. \(\d+%\)$/ });
    await busy.waitFor();
    expect(await busy.isDisabled()).toBe(true);
    // The label follows the job's progress.
    await expect
      .poll(async () => Number(/\((\d+)%\)/.exec((await busy.textContent()) ?? '')?.[1] ?? -1), {
        timeout: 60_000,
        interval: 100,
      })
      .toBeGreaterThan(0);

    const download = dialog.getByRole('link', { name: 'Download HD Image' });
    await download.waitFor({ timeout: 60_000 });
    expect(await dialog.getByRole('button', { name: 'Generate HD' }).isEnabled()).toBe(true);
    const href = (await download.getAttribute('href')) ?? '';
    expect(href).toMatch(/^\/api\/images\/hd\/brick-wall_120x120\.(png|jpg)$/);
    const [file] = await Promise.all([page.waitForEvent('download'), download.click()]);
    expect(file.suggestedFilename()).toMatch(/^brick-wall_120x120\.(png|jpg)$/);
    const saved = await file.path();
    const { width, height } = await sharp(saved, { limitInputPixels: false }).metadata();
    expect({ width, height }).toEqual({ width: 8258, height: 8258 });
  });

  it("[M7][H1] an image without a seed orders HD with seed '10'", async () => {
    const dialog = await openDetails('oak-plank.png');
    await dialog.getByLabel('Output Size').selectOption('120x20');
    await dialog.getByRole('button', { name: 'Generate HD' }).click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => hdCommands().length).toBe(1);
    expect(hdCommands()[0]).toMatchObject({
      image: 'oak-plank.png',
      rescale_factor_cr701: '1.7',
      scale_by_image692: '2',
      fixed_seed_value: '10',
      seed: '10',
    });
    const reopened = await openDetails('oak-plank.png');
    await reopened.getByRole('link', { name: 'Download HD Image' }).waitFor({ timeout: 60_000 });
  });

  it('[M1] the modal shows the image repeated 3×3 on demand', async () => {
    const dialog = await openDetails('brick-wall.png');
    const toggle = dialog.getByRole('button', { name: SEAMLESS_TEXTS.tiledPreview });
    expect(await toggle.getAttribute('aria-pressed')).toBe('false');
    await toggle.click();
    expect(await toggle.getAttribute('aria-pressed')).toBe('true');
    expect(
      await dialog
        .getByRole('img', { name: SEAMLESS_TEXTS.tiledImage('brick-wall.png') })
        .isVisible(),
    ).toBe(true);
  });
});
