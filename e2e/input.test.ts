import { GENERATE_TEXTS, INPUT_TEXTS, SCREEN_PATHS, SHELL_TEXTS } from '@tessera/contract';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { browserMissing, launchBrowser } from './support/browser.js';
import { grainyPhoto } from './support/reference.js';
import { seedLdImages } from './support/seed.js';
import { startServer, type RunningServer } from './support/server.js';
import { openPage, signIn, userFolder } from './support/session.js';
import { openScreen } from './support/screen.js';

/**
 * The references library on /input (beyond the spec; issue 7 part 5): the uploaded references
 * with what was generated from each, and "Use as reference" back to Generate.
 */

describe.skipIf(browserMissing)('References (/input)', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    server = await startServer({ BUILTIN_UPSCALER: 'lanczos' });
    browser = await launchBrowser();
    const admin = { username: 'admin', password: server.adminPassword };
    // An earlier upload, and two images generated from it (their metadata names it).
    const inputs = userFolder(server, 'admin', 'input');
    await fs.mkdir(inputs, { recursive: true });
    const pixels = Buffer.alloc(120 * 90 * 3);
    for (let i = 0; i < pixels.length; i++) pixels[i] = 60 + ((i * 37) % 120);
    await fs.writeFile(
      path.join(inputs, 'slate-ref.png'),
      await sharp(pixels, { raw: { width: 120, height: 90, channels: 3 } })
        .png()
        .toBuffer(),
    );
    const metadata = {
      input_image_path: 'slate-ref.png',
      cliptextencode_585: 'dark slate',
      cliptextencode_716: 'blurry',
      latent_width: 1024,
      latent_height: 1024,
    };
    await seedLdImages(server, admin, [
      { filename: 'slate-a.png', metadata: { ...metadata, created_at: '2025-03-01T10:00:00Z' } },
      { filename: 'slate-b.png', metadata: { ...metadata, created_at: '2025-03-01T11:00:00Z' } },
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });
  beforeEach(async () => {
    page = await openPage(browser, server);
    await signIn(page, 'admin', server.adminPassword);
  });
  afterEach(() => page.context().close());

  async function openReferences(): Promise<void> {
    await openScreen(page, SHELL_TEXTS.nav.input);
    await page.waitForURL('**/input');
    await page.getByRole('list', { name: INPUT_TEXTS.title }).waitFor();
  }

  const card = (filename: string) =>
    page.getByRole('list', { name: INPUT_TEXTS.title }).getByRole('listitem', { name: filename });

  it('[R2] lists each uploaded reference with the images generated from it', async () => {
    await openReferences();
    const slate = card('slate-ref.png');
    await slate.waitFor();
    expect(await slate.textContent()).toContain(INPUT_TEXTS.generatedCount(2));
    const made = slate.getByRole('list', { name: INPUT_TEXTS.generatedFrom('slate-ref.png') });
    expect(
      (
        await made
          .getByRole('img')
          .evaluateAll((images) => images.map((i) => i.getAttribute('alt')))
      )
        .slice()
        .sort(),
    ).toEqual(['slate-a.png', 'slate-b.png']);
    // The thumbnails and the reference itself are real images the browser could load.
    await expect
      .poll(() =>
        slate
          .getByRole('img')
          .evaluateAll((images) =>
            (images as HTMLImageElement[]).every((i) => i.complete && i.naturalWidth > 0),
          ),
      )
      .toBe(true);
  });

  it('"Use as reference" opens Generate with it loaded; what it makes is listed under that same reference, not a copy (issue 22, part 13)', async () => {
    await openReferences();
    await page.getByRole('button', { name: INPUT_TEXTS.useFile('slate-ref.png') }).click();
    await page.waitForURL((url) => url.pathname === SCREEN_PATHS.generate);
    await page
      .getByRole('button', { name: GENERATE_TEXTS.changeReference('slate-ref.png') })
      .waitFor();
    expect(new URL(page.url()).search).toBe('');

    await page.getByLabel('Positive Prompt').fill('dark slate, cleft');
    await page.getByLabel('Negative Prompt').fill('blurry');
    await page.getByRole('button', { name: 'Generate' }).click();
    // Its image in the footer, then the form free again (the button may read 'Generate' for a
    // moment after the click, so it alone cannot tell).
    await expect
      .poll(
        () => page.getByRole('list', { name: GENERATE_TEXTS.results }).getByRole('button').count(),
        {
          timeout: 45_000,
        },
      )
      .toBe(1);
    await expect
      .poll(() => page.getByRole('button', { name: /^Generat/ }).textContent())
      .toBe('Generate');
    const label = await page
      .getByRole('list', { name: GENERATE_TEXTS.results })
      .getByRole('button')
      .getAttribute('aria-label');
    const made = label?.replace(new RegExp(`^${GENERATE_TEXTS.load('')}`), '') ?? '';
    expect(made).toMatch(/^slate-ref-.+\.png$/);

    // The same bytes are the same reference (issue 22, part 13): no copy is added, and the new
    // image is listed under slate-ref.png, stored before references had their hashes recorded.
    await openReferences();
    const slate = card('slate-ref.png');
    // The list shown at once may be the one cached from the visit above; it is then fetched again.
    await slate.getByRole('img', { name: made }).waitFor({ timeout: 15_000 });
    expect(await slate.textContent()).toContain(INPUT_TEXTS.generatedCount(3));
    expect(
      await page.getByRole('list', { name: INPUT_TEXTS.title }).getByRole('heading').count(),
    ).toBe(1);
  });

  it('stores a file generated from three times as one reference (issue 22, part 13)', async () => {
    const folder = await fs.mkdtemp(path.join(os.tmpdir(), 'tessera-input-'));
    try {
      await fs.writeFile(
        path.join(folder, 'walnut.png'),
        await grainyPhoto({ width: 96, height: 96, base: [90, 60, 40], grain: 50, format: 'png' }),
      );
      await openScreen(page, 'Generate');
      await page.waitForURL('**/generate');
      const chooser = page.waitForEvent('filechooser');
      await page.getByRole('button', { name: /imagen de referencia/ }).click();
      await (await chooser).setFiles(path.join(folder, 'walnut.png'));
      await page
        .getByRole('button', { name: GENERATE_TEXTS.changeReference('walnut.png') })
        .waitFor();
      await page.getByLabel('Positive Prompt').fill('walnut');
      await page.getByLabel('Negative Prompt').fill('blurry');
      const results = page.getByRole('list', { name: GENERATE_TEXTS.results }).getByRole('button');
      for (let made = 1; made <= 3; made++) {
        await page.getByRole('button', { name: 'Generate' }).click();
        await expect.poll(() => results.count(), { timeout: 45_000 }).toBe(made);
        await expect
          .poll(() => page.getByRole('button', { name: /^Generat/ }).textContent())
          .toBe('Generate');
      }

      await openReferences();
      const walnut = page
        .getByRole('list', { name: INPUT_TEXTS.title })
        .getByRole('listitem')
        .filter({ has: page.getByRole('heading', { name: /^walnut-/ }) });
      await expect
        .poll(async () => (await walnut.count()) === 1 && (await walnut.textContent()), {
          timeout: 15_000,
        })
        .toContain(INPUT_TEXTS.generatedCount(3));
    } finally {
      await fs.rm(folder, { recursive: true, force: true });
    }
  }, 180_000);
});
