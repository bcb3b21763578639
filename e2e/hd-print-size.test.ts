import { buildHdCommand, OUTPUT_TEXTS } from '@tessera/contract';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { browserMissing, launchBrowser } from './support/browser.js';
import { orderHdOverMqtt, seedLdImages } from './support/seed.js';
import { startServer, type RunningServer } from './support/server.js';
import { addNewUser, openPage, signIn, type User } from './support/session.js';
import { openScreen } from './support/screen.js';

/**
 * The physical size of an HD image (issue 17, part 3): Output's HD Image Details show the
 * ordered size in cm and the resolution, and the downloaded file carries that resolution, so
 * print and CAD tools read the ordered size. Real server, fast Lanczos upscaler.
 */

const RECTANGLE = { latent_width: 1448, latent_height: 724, kseed: 7 };
const SQUARE = { latent_width: 1024, latent_height: 1024, kseed: 42 };

describe.skipIf(browserMissing)('HD print size and resolution', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  let user: User;

  beforeAll(async () => {
    server = await startServer({ BUILTIN_UPSCALER: 'lanczos', JOB_CONCURRENCY: '1' });
    user = addNewUser(server, 'print');
    await seedLdImages(server, user, [
      { filename: 'meadow.png', width: 1448, height: 724, metadata: RECTANGLE, color: '#5d7a3a' },
      { filename: 'tiles.png', width: 1024, height: 1024, metadata: SQUARE, color: '#c9b79c' },
    ]);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });
  beforeEach(async () => {
    page = await openPage(browser, server, {
      viewport: { width: 1280, height: 800 },
      acceptDownloads: true,
    });
    await signIn(page, user.username, user.password);
  });
  afterEach(() => page.context().close());

  async function openHdDetails(name: string) {
    await openScreen(page, 'Output');
    await page.waitForURL('**/output');
    await page
      .getByRole('list', { name: OUTPUT_TEXTS.images })
      .getByRole('button', { name, exact: true })
      .click();
    const dialog = page.getByRole('dialog', { name: 'HD Image Details' });
    await dialog.waitFor();
    const field = (label: string) => dialog.locator(`dt:text-is("${label}") + dd`).textContent();
    return { dialog, field };
  }

  it('a Rectangle ordered at 30x60 from its details reads 60 × 30 cm at 68.8 px/cm (175 dpi), and its file says so', async () => {
    // Ordered as a person does: the LD image's details, Output Size, Generate HD.
    await page.getByRole('button', { name: 'meadow.png', exact: true }).click();
    let details = page.getByRole('dialog', { name: 'meadow.png' });
    await details.getByLabel('Output Size').selectOption('30x60');
    await details.getByRole('button', { name: 'Generate HD' }).click();
    await details.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'meadow.png', exact: true }).click();
    details = page.getByRole('dialog', { name: 'meadow.png' });
    await details.getByRole('link', { name: 'Download HD Image' }).waitFor({ timeout: 90_000 });
    await page.keyboard.press('Escape');
    await details.waitFor({ state: 'detached' });

    const { dialog, field } = await openHdDetails('meadow_30x60.png');
    expect(await field('Size')).toBe('30x60');
    // 1448×724 at 30x60 is 4127×2063 px: 60 cm wide, 30 cm high, 4127 ÷ 60 = 68.8 px/cm.
    expect(await field(OUTPUT_TEXTS.printSize)).toBe('60 × 30 cm');
    expect(await field(OUTPUT_TEXTS.resolution)).toBe('68,8 px/cm (175 ppp)');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      dialog.getByRole('link', { name: 'Download' }).click(),
    ]);
    const meta = await sharp(await download.path()).metadata();
    expect([meta.format, meta.width, meta.height, meta.density]).toEqual(['png', 4127, 2063, 175]);
    // Width ÷ density is the ordered 60 cm.
    expect(((meta.width ?? 0) / (meta.density ?? 1)) * 2.54).toBeCloseTo(60, 0);
  }, 180_000);

  it('a Square at 30x30 reads 30 × 30 cm at 71.7 px/cm (182 dpi)', async () => {
    const command = buildHdCommand({
      id: `e2e-print-${Date.now()}`,
      user: user.username,
      image: 'tiles.png',
      metadata: SQUARE,
      sizeLabel: '30x30',
    });
    const name = await orderHdOverMqtt(server, user, command);
    const { field } = await openHdDetails(name);
    expect(await field(OUTPUT_TEXTS.printSize)).toBe('30 × 30 cm');
    expect(await field(OUTPUT_TEXTS.resolution)).toBe('71,7 px/cm (182 ppp)');
  }, 120_000);
});
