import { buildHdCommand, DETAIL_TEXTS, OUTPUT_TEXTS, PRINT_TEXTS } from '@tessera/contract';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { browserMissing, launchBrowser } from './support/browser.js';
import { orderHdOverMqtt, seedLdImages } from './support/seed.js';
import { startServer, type RunningServer } from './support/server.js';
import { addNewUser, openPage, signIn, type User } from './support/session.js';
import { openScreen } from './support/screen.js';

/**
 * A print file of an HD image (issue 26, parts 1 and 2), as a person makes one: the HD details
 * say how much of the detail is generated, "Download for print" at 300 dpi with 2 mm bleed shows
 * the file's size before it is made, "Make print file" runs the job, and the TIFF that downloads
 * has the pixels and the density asked for. Real server, fast Lanczos upscaler, a small HD size.
 */

/** `DOCS_PICTURE=1` also saves the dialog, its settings chosen, for docs/print.md. */
const DOCS_PICTURE = new URL('../docs/images/print-dialog.png', import.meta.url);

const SQUARE = { latent_width: 1024, latent_height: 1024, kseed: 42 };

describe.skipIf(browserMissing)('Download for print', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  let user: User;
  let hdName: string;

  beforeAll(async () => {
    server = await startServer({ BUILTIN_UPSCALER: 'lanczos', JOB_CONCURRENCY: '1' });
    user = addNewUser(server, 'printer');
    await seedLdImages(server, user, [
      { filename: 'terrazzo.png', width: 1024, height: 1024, metadata: SQUARE, color: '#c9b79c' },
    ]);
    // 30x30 of a 1024 px square: 2150 px, 30 cm a side; its print at 300 dpi is 12.9 MP.
    hdName = await orderHdOverMqtt(
      server,
      user,
      buildHdCommand({
        id: `e2e-print-${Date.now()}`,
        user: user.username,
        image: 'terrazzo.png',
        metadata: SQUARE,
        sizeLabel: '30x30',
      }),
    );
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });
  beforeEach(async () => {
    page = await openPage(browser, server, {
      viewport: { width: 1280, height: 900 },
      acceptDownloads: true,
    });
    await signIn(page, user.username, user.password);
  });
  afterEach(() => page.context().close());

  it('makes a 300 dpi TIFF with 2 mm bleed, said before how large, and downloads it', async () => {
    await openScreen(page, 'Output');
    await page.waitForURL('**/output');
    await page
      .getByRole('list', { name: OUTPUT_TEXTS.images })
      .getByRole('button', { name: hdName, exact: true })
      .click();
    const details = page.getByRole('dialog', { name: OUTPUT_TEXTS.detailsTitle });
    await details.waitFor();

    // Honest detail: Lanczos alone generates nothing beyond the LD's 1024 px over 30 cm.
    const detail = details.getByRole('region', { name: DETAIL_TEXTS.heading });
    const value = (scope: typeof detail, label: string) =>
      scope.locator(`dt:text-is("${label}") + dd`).textContent();
    expect(await value(detail, DETAIL_TEXTS.generated)).toBe('34,1 px/cm (87 ppp)');
    expect(await value(detail, DETAIL_TEXTS.hd)).toBe('71,7 px/cm (182 ppp)');
    expect(await detail.locator('.detail-share').textContent()).toBe(
      'El 48 % del detalle del archivo HD se ha generado; el resto es ampliación.',
    );

    await details.getByRole('button', { name: PRINT_TEXTS.open }).click();
    const dialog = page.getByRole('dialog', { name: PRINT_TEXTS.title });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: PRINT_TEXTS.dpiButton(300) }).click();
    await dialog.getByLabel(PRINT_TEXTS.bleed).fill('2');

    // (30 + 0.4) ÷ 2.54 × 300 = 3590.55 → 3591 px a side; 3591² × 3 bytes uncompressed.
    const field = (label: string) => value(dialog.locator('.print-summary'), label);
    expect(await field(PRINT_TEXTS.pixels)).toBe('3591 × 3591 px (12,9 MP)');
    expect(await field(PRINT_TEXTS.physicalSize)).toBe(
      '30,4 × 30,4 cm (corte de 30 × 30 cm, 2 mm de sangrado)',
    );
    expect(await field(PRINT_TEXTS.uncompressed)).toBe('38.685.843 bytes (36,9 MB)');
    // The server's estimate, once the settings rest.
    await expect
      .poll(() => field(PRINT_TEXTS.estimated), { timeout: 15_000 })
      .toMatch(/^unos \d+(,\d)? (kB|MB)$/);
    const printDetail = dialog.getByRole('region', { name: DETAIL_TEXTS.heading });
    expect(await value(printDetail, DETAIL_TEXTS.print)).toBe('118,1 px/cm (300 ppp)');
    expect(await printDetail.locator('.detail-share').textContent()).toBe(
      'El 29 % del detalle de la impresión se ha generado; el resto es ampliación.',
    );

    if (process.env['DOCS_PICTURE'] === '1') {
      await dialog.screenshot({ path: fileURLToPath(DOCS_PICTURE) });
    }

    await dialog.getByRole('button', { name: PRINT_TEXTS.order }).click();
    const files = dialog.getByRole('region', { name: PRINT_TEXTS.files });
    await files.getByText('300 ppp · 2 mm de sangrado · LZW · 8 bits', { exact: false }).waitFor();
    const link = files.getByRole('link', { name: /^Descargar/ });
    await link.waitFor({ timeout: 90_000 });
    expect(await link.getAttribute('href')).toMatch(/^\/api\/images\/print\/.+\.tif$/);

    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    expect(download.suggestedFilename()).toMatch(/\.tif$/);
    const meta = await sharp(await download.path(), { limitInputPixels: false }).metadata();
    expect([meta.format, meta.width, meta.height, meta.density, meta.depth]).toEqual([
      'tiff',
      3591,
      3591,
      300,
      'uchar',
    ]);
    // sRGB with its profile embedded.
    expect(meta.icc?.length ?? 0).toBeGreaterThan(0);

    // Closed, the dialog leaves the file listed in the HD details too.
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    const listed = details.getByRole('region', { name: PRINT_TEXTS.files });
    await listed.getByRole('link', { name: /^Descargar/ }).waitFor();
  }, 150_000);
});
