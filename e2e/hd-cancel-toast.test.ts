import { HD_NOTIFICATION_TEXTS, SHELL_TEXTS, TEXTS, UPSCALE_TEXTS } from '@tessera/contract';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { browserMissing, launchBrowser } from './support/browser.js';
import { openScreen, recordTexts } from './support/screen.js';
import { seedLdImages } from './support/seed.js';
import { startServer, type RunningServer } from './support/server.js';
import { openPage, signIn } from './support/session.js';

/**
 * A cancelled HD job leaves the toast's queued count (issue 22, part 9): the server ends the
 * cancelled id on the status stream, so the toast stops counting it. The queue is paused while
 * the orders are placed and one is cancelled, so nothing starts before the test says so.
 */

describe.skipIf(browserMissing)('cancelling an HD job on the queue page', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  let admin: { username: string; password: string };

  beforeAll(async () => {
    server = await startServer({ BUILTIN_UPSCALER: 'lanczos', JOB_CONCURRENCY: '1' });
    admin = { username: 'admin', password: server.adminPassword };
    await seedLdImages(
      server,
      admin,
      ['keep.png', 'drop.png'].map((filename) => ({
        filename,
        width: 1024,
        height: 1024,
        metadata: { latent_width: 1024, latent_height: 1024 },
      })),
    );
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });
  beforeEach(async () => {
    page = await openPage(browser, server, { viewport: { width: 1280, height: 800 } });
    await signIn(page, admin.username, admin.password);
    await page
      .getByRole('status', { name: SHELL_TEXTS.connection.label })
      .getByText(SHELL_TEXTS.connection.connected)
      .waitFor();
  });
  afterEach(() => page.context().close());

  const toastRegion = () => page.getByRole('status', { name: HD_NOTIFICATION_TEXTS.label });
  const group = (name: string) => page.getByRole('region', { name, exact: true });
  const row = (name: string, image: string) =>
    group(name)
      .getByRole('row')
      .filter({ has: page.getByRole('rowheader', { name: image }) });

  async function orderHd(image: string) {
    await page.getByRole('button', { name: image, exact: true }).click();
    const dialog = page.getByRole('dialog', { name: image });
    await dialog.getByLabel('Output Size').selectOption('30x30');
    await dialog.getByRole('button', { name: 'Generate HD' }).click();
    await dialog.waitFor({ state: 'detached' });
    await toastRegion()
      .getByText(`HD image generation for ${image} added to queue.`)
      .waitFor({ timeout: 20_000 });
  }

  it('takes the cancelled job out of the toast’s queued count (issue 22, part 9)', async () => {
    const texts = await recordTexts(toastRegion());
    await openScreen(page, SHELL_TEXTS.nav.upscale);
    await page.getByRole('button', { name: UPSCALE_TEXTS.pause }).click();
    await page
      .getByRole('status', { name: UPSCALE_TEXTS.queueState })
      .getByText(UPSCALE_TEXTS.paused)
      .waitFor();

    await openScreen(page, 'Dashboard');
    await orderHd('keep.png');
    await orderHd('drop.png');

    await openScreen(page, SHELL_TEXTS.nav.upscale);
    await row(UPSCALE_TEXTS.groups.queued, 'drop.png')
      .getByRole('button', { name: UPSCALE_TEXTS.cancelJob('drop.png', '30x30') })
      .click();
    await row(UPSCALE_TEXTS.groups.cancelled, 'drop.png').waitFor();
    await toastRegion().getByText(TEXTS.hdCancelledToast('drop.png')).waitFor({ timeout: 10_000 });

    await page.getByRole('button', { name: UPSCALE_TEXTS.resume }).click();
    await toastRegion()
      .getByText('HD image generation for keep.png finished.')
      .waitFor({ timeout: 60_000 });
    const progress = (await texts()).filter((text) => text.startsWith('Generating HD'));
    expect(progress.length).toBeGreaterThan(0);
    // Nothing waits behind keep.png any more: the cancelled drop.png is not counted.
    for (const text of progress)
      expect(text).toMatch(/^Generating HD\.\.\. \(\d+%\) \(Queued: 0\)$/);
  }, 120_000);
});
