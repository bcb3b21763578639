import {
  DASHBOARD_TEXTS,
  HD_NOTIFICATION_TEXTS,
  SCREEN_PATHS,
  SHELL_TEXTS,
} from '@tessera/contract';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { browserMissing, launchBrowser } from './support/browser.js';
import { openScreen, recordTexts } from './support/screen.js';
import { seedLdImages, sendHdOrdersOverMqtt } from './support/seed.js';
import { startServer, type RunningServer } from './support/server.js';
import { openPage, signIn } from './support/session.js';

/**
 * The HD status toast (SPEC §2, §4, §9; checklist H4–H9) followed in a real browser, against the
 * real server and broker with the fast Lanczos upscaler and one job at a time.
 */

describe.skipIf(browserMissing)('HD status toasts', () => {
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
      ['tile-a.png', 'tile-b.png', 'tile-c.png', 'tile-d.png'].map((filename, index) => ({
        filename,
        width: 1024,
        height: 1024,
        metadata: { latent_width: 1024, latent_height: 1024, kseed: 100 + index },
        color: ['#9b3b2a', '#3b9b2a', '#2a3b9b', '#9b9b2a'][index],
      })),
    );
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });
  beforeEach(async () => {
    page = await openPage(browser, server, {
      acceptDownloads: true,
      viewport: { width: 1280, height: 800 },
    });
    await signIn(page, admin.username, admin.password);
    await page
      .getByRole('status', { name: SHELL_TEXTS.connection.label })
      .getByText(SHELL_TEXTS.connection.connected)
      .waitFor();
  });
  afterEach(() => page.context().close());

  const region = () => page.getByRole('status', { name: HD_NOTIFICATION_TEXTS.label });
  const toast = () => region().locator('.toast');

  it('[H6][H7][H8][H9][M3][M5] an HD order followed through its toasts (queued, progress, finished) to the download', async () => {
    // Time flows, and the test can move the page's timers on at once (a toast must not close).
    await page.clock.install();
    // Every text the toast shows, in order: a job can pass a stage faster than a poll.
    const texts = await recordTexts(region());
    await page.getByRole('button', { name: 'tile-a.png', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'tile-a.png' });
    await dialog.getByLabel('Output Size').selectOption('120x120');
    await dialog.getByRole('button', { name: 'Generate HD' }).click();
    await dialog.waitFor({ state: 'detached' });

    const finished = 'HD image generation for tile-a.png finished.';
    await toast().getByText(finished).waitFor({ timeout: 60_000 });
    const shown = await texts();
    expect(shown[0]).toBe('HD image generation for tile-a.png added to queue.');
    const progress = shown.slice(1, -1);
    expect(progress.length).toBeGreaterThan(0);
    for (const text of progress)
      expect(text).toMatch(/^Generating HD\.\.\. \(\d+%\) \(Queued: 0\)$/);
    // Each percent is told once, rising.
    const percents = progress.map((text) => Number(/\((\d+)%\)/.exec(text)?.[1]));
    expect(percents).toEqual([...new Set(percents)].sort((a, b) => a - b));
    expect(shown.at(-1)).toBe(finished);

    // One toast, at the top right (just under the Dashboard's search bar, issue 22 part 10),
    // with the image's thumbnail.
    expect(await toast().count()).toBe(1);
    const box = await toast().boundingBox();
    const bar = await page.getByRole('search', { name: DASHBOARD_TEXTS.find }).boundingBox();
    expect(box).not.toBeNull();
    expect(1280 - ((box?.x ?? 0) + (box?.width ?? 0))).toBeLessThan(40);
    expect((box?.y ?? 999) - ((bar?.y ?? 0) + (bar?.height ?? 0))).toBeLessThan(40);
    const thumbnail = toast().locator('img');
    expect(await thumbnail.getAttribute('src')).toBe('/api/images/ld/thumbnail/tile-a.png');
    await expect
      .poll(() => thumbnail.evaluate((img) => (img as HTMLImageElement).naturalWidth))
      .toBeGreaterThan(0);

    // It never closes by itself: no timer of the page's, run on for 6 s, closes it.
    await page.clock.runFor(6000);
    expect(await toast().getByText(finished).isVisible()).toBe(true);

    // Hovering pauses it; a click closes it.
    await toast().hover();
    expect(await toast().getAttribute('data-paused')).toBe('true');
    await page.mouse.move(10, 790);
    expect(await toast().getAttribute('data-paused')).toBe('false');
    await toast().click();
    await toast().waitFor({ state: 'detached' });

    // To the download, from the image's details.
    await page.getByRole('button', { name: 'tile-a.png', exact: true }).click();
    const link = page.getByRole('dialog').getByRole('link', { name: 'Download HD Image' });
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    expect(download.suggestedFilename()).toMatch(/^tile-a_120x120\.(png|jpg)$/);
    const { width } = await sharp(await download.path(), { limitInputPixels: false }).metadata();
    expect(width).toBe(8258);
  });

  it('[H5][H9][H6] on any screen, the progress toast counts the jobs still queued', async () => {
    await openScreen(page, 'Output');
    await page.waitForURL('**/output');
    const texts = await recordTexts(region());
    await sendHdOrdersOverMqtt(server, admin, [
      { image: 'tile-b.png', sizeLabel: '120x120' },
      { image: 'tile-c.png', sizeLabel: '30x30' },
      { image: 'tile-d.png', sizeLabel: '30x30' },
    ]);
    await toast()
      .getByText('HD image generation for tile-d.png finished.')
      .waitFor({ timeout: 90_000 });
    const shown = await texts();
    expect(shown).toContain('HD image generation for tile-b.png added to queue.');
    expect(shown).toContain('HD image generation for tile-c.png added to queue.');
    expect(shown).toContain('HD image generation for tile-d.png added to queue.');
    // While tile-b runs, tile-c and tile-d wait; then one, then none.
    expect(shown.some((text) => /^Generating HD\.\.\. \(\d+%\) \(Queued: 2\)$/.test(text))).toBe(
      true,
    );
    expect(shown.some((text) => /^Generating HD\.\.\. \(\d+%\) \(Queued: 0\)$/.test(text))).toBe(
      true,
    );
    expect(shown).toContain('HD image generation for tile-b.png finished.');
    expect(shown).toContain('HD image generation for tile-c.png finished.');
    expect(new URL(page.url()).pathname).toBe(SCREEN_PATHS.output);
  });

  it("[H4] a failed order shows 'Error generating HD image for <image>. Retrying...'", async () => {
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    await sendHdOrdersOverMqtt(server, admin, [{ image: 'no-such-image.png', sizeLabel: '30x30' }]);
    await toast()
      .getByText('Error generating HD image for no-such-image.png. Retrying...')
      .waitFor({ timeout: 20_000 });
    expect(errors.some((text) => text.includes('no-such-image.png'))).toBe(true);
  });
});
