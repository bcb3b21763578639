import { IMAGE_DETAILS_TEXTS } from '@tessera/contract';
import fs from 'node:fs/promises';
import { GENERATE_TEXTS } from '@tessera/contract';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { browserMissing, launchBrowser } from './support/browser.js';
import { grainyPhoto } from './support/reference.js';
import { commandOverMqtt, seedLdImages } from './support/seed.js';
import { startServer, type RunningServer } from './support/server.js';
import { addNewUser, openPage, signIn, userFolder, type User } from './support/session.js';

/**
 * "Use these settings" (issue 13, feature 11): from an image's details, Generate opens with the
 * image's reference, every parameter and its tags filled in, and generating makes a new image
 * with those settings.
 */

const REFERENCE = 'reference-slate.png';
const SOURCE = 'slate-source.png';
const METADATA = {
  input_image_path: REFERENCE,
  cliptextencode_585: 'wet slate tiles, grey and blue',
  cliptextencode_716: 'people, text',
  ksampler_cfg: 6.5,
  ksampler_denoise: 0.55,
  ipadapter_weight: 0.8,
  style: 0.4,
  kseed: 123456,
  seamless: true,
  latent_width: 1448,
  latent_height: 724,
};

interface ListedImage {
  filename: string;
  metadata: Record<string, unknown>;
}

describe.skipIf(browserMissing)('remix: use the settings of an image', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  let user: User;

  beforeAll(async () => {
    server = await startServer();
    user = addNewUser(server, 'remix');
    const inputFolder = userFolder(server, user.username, 'input');
    await fs.mkdir(inputFolder, { recursive: true });
    await fs.writeFile(
      `${inputFolder}/${REFERENCE}`,
      await grainyPhoto({ width: 256, height: 256, base: [70, 90, 100], grain: 60, format: 'png' }),
    );
    await seedLdImages(server, user, [
      { filename: SOURCE, width: 1448, height: 724, metadata: METADATA, color: '#50606e' },
    ]);
    await commandOverMqtt(server, user, 'create-tag', {
      id: 't-slate',
      name: 'Slate',
      color: '#445566',
    });
    await commandOverMqtt(server, user, 'create-tag', {
      id: 't-wood',
      name: 'Wood',
      color: '#aa7744',
    });
    await commandOverMqtt(server, user, 'assign-tag', { id: 't-slate', filename: SOURCE });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });
  beforeEach(async () => {
    page = await openPage(browser, server);
    await signIn(page, user.username, user.password);
  });
  afterEach(() => page.context().close());

  const generateButton = () => page.getByRole('button', { name: /^Generat/ });

  it("'Use these settings' opens Generate with the reference, every parameter and the tags, and generates with them (issue 13)", async () => {
    await page.getByRole('button', { name: SOURCE, exact: true }).press('Enter');
    const details = page.getByRole('dialog', { name: SOURCE });
    await details.getByRole('button', { name: IMAGE_DETAILS_TEXTS.remix }).click();
    await page.waitForURL('**/generate');
    // The Dashboard, its dialog with it, may stay on screen a moment after the address changes.
    await expect.poll(() => details.count()).toBe(0);

    await page.getByRole('button', { name: GENERATE_TEXTS.changeReference(REFERENCE) }).waitFor();
    expect(await page.getByLabel('Positive Prompt').inputValue()).toBe(METADATA.cliptextencode_585);
    expect(await page.getByLabel('Negative Prompt').inputValue()).toBe('people, text');
    expect(await page.getByLabel('Output Format').inputValue()).toBe('Rectangle');
    expect(await page.getByLabel('Imagination Weight').inputValue()).toBe('6.5');
    expect(await page.getByLabel('Similarity').inputValue()).toBe('0.55');
    expect(await page.getByLabel('Prompt Adherence').inputValue()).toBe('0.8');
    expect(await page.getByLabel('Style Weight').inputValue()).toBe('40');
    expect(await page.getByRole('switch', { name: 'Seamless' }).isChecked()).toBe(true);
    // Its seed comes along, fixed, so the same image can be made again (issue 22, part 12).
    expect(await page.getByRole('switch', { name: 'Use Fixed Seed' }).isChecked()).toBe(true);
    await page.getByText(GENERATE_TEXTS.fixedSeed('123456')).waitFor();
    // The image's tag is chosen for the new images: the collapsed section counts it.
    const tagsSection = page.locator('summary').filter({ hasText: 'Tags' });
    expect(await tagsSection.textContent()).toBe('Tags1');
    await tagsSection.click();
    expect(await page.getByRole('checkbox', { name: 'Slate' }).isChecked()).toBe(true);
    expect(await page.getByRole('checkbox', { name: 'Wood' }).isChecked()).toBe(false);

    await page.getByLabel('Batch Size').fill('1');
    await generateButton().click();
    // Done when the new image is listed under the remixed tag (the button's text may still read
    // 'Generate' for a moment after the click, so it cannot tell).
    const newImage = async () => {
      const answer = await commandOverMqtt(server, user, 'list-low-definition', {
        page: 1,
        size: 10,
        filters: { tags: ['t-slate'] },
      });
      return (answer.images as ListedImage[]).find((image) => image.filename !== SOURCE);
    };
    await expect.poll(newImage, { timeout: 60_000, interval: 500 }).toBeDefined();
    await expect.poll(() => generateButton().textContent(), { timeout: 10_000 }).toBe('Generate');
    const made = await newImage();
    expect(made?.metadata).toMatchObject({
      cliptextencode_585: METADATA.cliptextencode_585,
      cliptextencode_716: 'people, text',
      ksampler_cfg: 6.5,
      ksampler_denoise: 0.55,
      ipadapter_weight: 0.8,
      style: 0.4,
      kseed: 123456,
      seamless: true,
      latent_width: 1448,
      latent_height: 724,
    });

    // The remix was used once: the router's state that carried it is cleared (react-router keeps
    // it in history.state.usr), so a reload has nothing to apply and starts a fresh form.
    await expect
      .poll(() => page.evaluate(() => (history.state as { usr?: unknown } | null)?.usr ?? null))
      .toBeNull();
    await page.reload();
    await page.getByLabel('Positive Prompt').waitFor();
    expect(await page.getByLabel('Positive Prompt').inputValue()).toBe('');
  });
  it('remixing an image made with a random seed makes the same image again: its seed comes along, fixed (issue 22, part 12)', async () => {
    // The settings of the seeded image, then a random seed for a first new image.
    await page.getByRole('button', { name: SOURCE, exact: true }).press('Enter');
    await page
      .getByRole('dialog', { name: SOURCE })
      .getByRole('button', { name: IMAGE_DETAILS_TEXTS.remix })
      .click();
    await page.waitForURL('**/generate');
    await page.getByRole('button', { name: GENERATE_TEXTS.changeReference(REFERENCE) }).waitFor();
    const fixedSeed = page.getByRole('switch', { name: 'Use Fixed Seed' });
    await fixedSeed.setChecked(false);
    await page.getByText(GENERATE_TEXTS.randomSeed).waitFor();
    await page.getByLabel('Batch Size').fill('1');

    // Generates one image and opens its details from the preview, once the preview shows it.
    const preview = page.getByRole('button', {
      name: new RegExp(`^${GENERATE_TEXTS.openDetails('')}`),
    });
    const previewName = async () =>
      (await preview.count()) === 0 ? null : await preview.getAttribute('aria-label');
    const madeImage = async () => {
      const before = await previewName();
      await generateButton().click();
      await expect
        .poll(
          async () => {
            const shown = await previewName();
            return shown !== null && shown !== before;
          },
          { timeout: 90_000 },
        )
        .toBe(true);
      await expect.poll(() => generateButton().textContent(), { timeout: 10_000 }).toBe('Generate');
      const name = ((await previewName()) ?? '').replace(GENERATE_TEXTS.openDetails(''), '');
      await preview.click();
      const details = page.getByRole('dialog', { name });
      const seed = await details.locator('dt:text-is("Seed") + dd').textContent();
      return { name, seed, details };
    };
    const first = await madeImage();
    expect(first.seed).toMatch(/^\d+$/);

    // Its settings again, from its details: the seed is the image's, and fixed.
    await first.details.getByRole('button', { name: IMAGE_DETAILS_TEXTS.remix }).click();
    await first.details.waitFor({ state: 'detached' });
    await page.getByText(GENERATE_TEXTS.fixedSeed(first.seed ?? '')).waitFor();
    expect(await fixedSeed.isChecked()).toBe(true);

    const second = await madeImage();
    expect(second.name).not.toBe(first.name);
    expect(second.seed).toBe(first.seed);
    // The built-in engine makes the same pixels from the same settings and seed.
    const pixels = async (name: string) => {
      const answer = await page.request.get(`/api/images/ld/${encodeURIComponent(name)}`);
      return sharp(await answer.body())
        .raw()
        .toBuffer();
    };
    expect((await pixels(second.name)).equals(await pixels(first.name))).toBe(true);
  }, 240_000);
});
