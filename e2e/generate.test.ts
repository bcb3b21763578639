import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { API_ROUTES, GENERATE_TEXTS } from '@tessera/contract';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { browserMissing, launchBrowser } from './support/browser.js';
import { grainyPhoto } from './support/reference.js';
import { commandOverMqtt, seedLdImages } from './support/seed.js';
import { startServer, type RunningServer } from './support/server.js';
import { collectAlerts, openPage, signIn } from './support/session.js';
import { openScreen } from './support/screen.js';

/**
 * The Generate flow (SPEC §4; checklist G3–G6, G12–G16, P1) against the real server and its
 * builtin engine: a tagged batch from upload to Dashboard, a real failure, and the footer.
 */

interface ListedImage {
  filename: string;
  tags: string[];
}

/**
 * A PNG whose header is whole (so the browser reads its size and the server accepts it) but
 * whose pixel data is not compressed data at all: the engine cannot decode it, so the job fails
 * on the server exactly as a real engine failure would.
 */
async function undecodableReference(): Promise<Buffer> {
  const png = await sharp({ create: { width: 96, height: 96, channels: 3, background: '#556b2f' } })
    .png()
    .toBuffer();
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body) >>> 0);
    return Buffer.concat([length, body, crc]);
  };
  const signatureAndHeader = png.subarray(0, 8 + 25);
  return Buffer.concat([
    signatureAndHeader,
    chunk('IDAT', Buffer.from('these bytes are not a zlib stream')),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

describe.skipIf(browserMissing)('Generate: the flow', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  let folder: string;
  let admin: { username: string; password: string };
  let alerts: string[];

  beforeAll(async () => {
    server = await startServer({ BUILTIN_UPSCALER: 'lanczos' });
    browser = await launchBrowser();
    admin = { username: 'admin', password: server.adminPassword };
    folder = await fs.mkdtemp(path.join(os.tmpdir(), 'tessera-generate-'));
    await fs.writeFile(
      path.join(folder, 'oak.png'),
      await grainyPhoto({ width: 160, height: 120, base: [120, 80, 50], grain: 60, format: 'png' }),
    );
    await fs.writeFile(path.join(folder, 'undecodable.png'), await undecodableReference());
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    if (folder) await fs.rm(folder, { recursive: true, force: true });
  });
  beforeEach(async () => {
    page = await openPage(browser, server);
    alerts = collectAlerts(page);
    await signIn(page, admin.username, admin.password);
    await openScreen(page, 'Generate');
    await page.waitForURL('**/generate');
  });
  afterEach(() => page.context().close());

  async function chooseReference(name: string): Promise<void> {
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: /imagen de referencia/ }).click();
    await (await chooser).setFiles(path.join(folder, name));
    await page.getByRole('button', { name: GENERATE_TEXTS.changeReference(name) }).waitFor();
  }

  async function fillPrompts(positive: string, negative: string): Promise<void> {
    await page.getByLabel('Positive Prompt').fill(positive);
    await page.getByLabel('Negative Prompt').fill(negative);
  }

  const generateButton = () => page.getByRole('button', { name: /^Generat/ });
  const results = () => page.getByRole('list', { name: GENERATE_TEXTS.results });

  /**
   * Waits for the batch just started to end with `count` images in the footer. The button may
   * still read 'Generate' for a moment after the click, so it alone cannot tell.
   */
  async function waitForResults(count: number): Promise<void> {
    await expect
      .poll(
        () =>
          results()
            .getByRole('button', { name: new RegExp(`^${GENERATE_TEXTS.load('')}`) })
            .count(),
        { timeout: 45_000 },
      )
      .toBe(count);
    await expect.poll(() => generateButton().textContent()).toBe('Generate');
  }

  /** The user's LD images as the server lists them (list-low-definition, from a second client). */
  async function listedImages(filters?: { tags: string[] }): Promise<ListedImage[]> {
    const answer = await commandOverMqtt(server, admin, 'list-low-definition', {
      page: 1,
      size: 100,
      ...(filters && { filters }),
    });
    return answer.images as ListedImage[];
  }

  async function resultNames(): Promise<string[]> {
    const labels = await results()
      .getByRole('button')
      .evaluateAll((buttons) => buttons.map((button) => button.getAttribute('aria-label') ?? ''));
    return labels.map((label) => label.replace(new RegExp(`^${GENERATE_TEXTS.load('')}`), ''));
  }

  it('[G3][G4][G12][G13][G14][G15][P1] a batch of 2 with a tag ends with both images in the footer, in the Dashboard and under the tag', async () => {
    const tagId = `wood-${Date.now()}`;
    await commandOverMqtt(server, admin, 'create-tag', {
      id: tagId,
      name: 'Wood',
      color: '#8a5a2b',
    });
    // An image without the tag, so the tag's filter has something to leave out.
    await seedLdImages(server, admin, [{ filename: 'untagged-stone.png', color: '#777777' }]);
    await page.reload();

    await chooseReference('oak.png');
    await fillPrompts('weathered oak planks, top view', 'blurry, text');
    await page.getByLabel('Batch Size').fill('2');
    await page.getByText('Tags', { exact: true }).click();
    await page.getByRole('checkbox', { name: 'Wood' }).check();

    await generateButton().click();
    // The form locks and the footer holds one placeholder per item.
    await expect.poll(() => generateButton().textContent()).toMatch(/^Generating\.\.\. \(\d+%\)$/);
    expect(await generateButton().isDisabled()).toBe(true);
    expect(await page.getByLabel('Positive Prompt').isDisabled()).toBe(true);
    expect(await page.getByRole('img', { name: GENERATE_TEXTS.pendingImage }).count()).toBe(2);

    await waitForResults(2);
    expect(alerts).toEqual([]);
    expect(await page.getByRole('img', { name: GENERATE_TEXTS.pendingImage }).count()).toBe(0);
    const made = await resultNames();
    expect(made).toHaveLength(2);
    // The last image is the one shown in the preview.
    await page.getByRole('button', { name: GENERATE_TEXTS.openDetails(made[1] ?? '') }).waitFor();

    // The server has both images, each with the tag.
    const tagged = await listedImages({ tags: [tagId] });
    expect(tagged.map((image) => image.filename).sort()).toEqual([...made].sort());
    expect(tagged.every((image) => image.tags.includes(tagId))).toBe(true);

    // In the Dashboard, both are there; under the tag's filter only they are.
    await openScreen(page, 'Dashboard');
    await page.waitForURL('**/dashboard');
    for (const name of made) await page.getByRole('img', { name }).first().waitFor();
    await page.getByRole('img', { name: 'untagged-stone.png' }).first().waitFor();
    await page
      .getByRole('list', { name: 'Tags' })
      .getByRole('button', { name: 'Wood', exact: true })
      .click();
    await expect.poll(() => page.getByRole('img', { name: 'untagged-stone.png' }).count()).toBe(0);
    for (const name of made) {
      expect(await page.getByRole('img', { name }).first().isVisible()).toBe(true);
    }
  });

  it('[G6][G5] clicking a footer thumbnail reloads its image, its reference and its parameters', async () => {
    await chooseReference('oak.png');
    await fillPrompts('slate tiles, wet', 'people');
    await page.getByLabel('Imagination Weight').fill('7.5');
    await page.getByLabel('Style Weight').fill('35');
    await page.getByRole('switch', { name: 'Seamless' }).check();
    await page.getByLabel('Batch Size').fill('2');
    await generateButton().click();
    await waitForResults(2);
    const [first, second] = await resultNames();
    expect(first && second).toBeTruthy();

    // The person moves on: other prompts, other weights, and the second image in the preview.
    await fillPrompts('something else entirely', 'nothing');
    await page.getByLabel('Imagination Weight').fill('1');
    await page.getByLabel('Style Weight').fill('0');
    await page.getByRole('switch', { name: 'Seamless' }).uncheck();
    await page.getByRole('switch', { name: 'Use Fixed Seed' }).uncheck();

    await results()
      .getByRole('button', { name: GENERATE_TEXTS.load(first ?? '') })
      .click();
    await expect
      .poll(() => page.getByLabel('Positive Prompt').inputValue())
      .toBe('slate tiles, wet');
    expect(await page.getByLabel('Negative Prompt').inputValue()).toBe('people');
    expect(await page.getByLabel('Imagination Weight').inputValue()).toBe('7.5');
    expect(await page.getByLabel('Style Weight').inputValue()).toBe('35');
    expect(await page.getByLabel('Output Format').inputValue()).toBe('Square');
    expect(await page.getByRole('switch', { name: 'Seamless' }).isChecked()).toBe(true);
    expect(await page.getByRole('switch', { name: 'Use Fixed Seed' }).isChecked()).toBe(true);
    // Its image in the preview, and its reference (the uploaded copy) back in the upload area.
    await page.getByRole('button', { name: GENERATE_TEXTS.openDetails(first ?? '') }).waitFor();
    await page
      .getByRole('button', { name: /^Cambiar la imagen de referencia \(oak-.+\.png\)$/ })
      .waitFor();

    // Clicking the preview opens the image's details.
    await page.getByRole('button', { name: GENERATE_TEXTS.openDetails(first ?? '') }).click();
    await page.getByRole('dialog').waitFor();
  });

  it("[G16] an image the engine cannot process stops the batch with 'Error en la generación de imágenes.'", async () => {
    const before = await listedImages();
    const inputsBefore = await inputCount();

    // Its header is whole, so the browser and the server take it; the engine cannot decode it.
    await chooseReference('undecodable.png');
    expect(alerts).toEqual([]);
    await fillPrompts('moss on stone', 'blurry');
    await page.getByLabel('Batch Size').fill('2');
    await generateButton().click();
    // The placeholders come once the page has checked the file again (U6), a moment after the click.
    await expect
      .poll(() => page.getByRole('img', { name: GENERATE_TEXTS.pendingImage }).count())
      .toBe(2);

    const error = page.getByRole('alert');
    await expect
      .poll(() => error.textContent(), { timeout: 45_000 })
      .toBe('Error en la generación de imágenes.');
    // The batch stopped: the form is free again, its placeholders are gone, no image was made.
    expect(await generateButton().textContent()).toBe('Generate');
    expect(await generateButton().isEnabled()).toBe(true);
    expect(await page.getByRole('img', { name: GENERATE_TEXTS.pendingImage }).count()).toBe(0);
    expect(await results().count()).toBe(0);
    const after = await listedImages();
    expect(after.length).toBe(before.length);
    // The second item was never posted: only one more upload reached the server.
    expect(await inputCount()).toBe(inputsBefore + 1);
  });

  /** How many references the server keeps for the user (one per posted job). */
  async function inputCount(): Promise<number> {
    const answer = await page.request.get(API_ROUTES.inputs);
    return ((await answer.json()) as { inputs: unknown[] }).inputs.length;
  }
});
