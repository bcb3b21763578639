import {
  DASHBOARD_TEXTS,
  HD_NOTIFICATION_TEXTS,
  SHELL_TEXTS,
  UPSCALE_TEXTS,
} from '@tessera/contract';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { browserMissing, launchBrowser } from './support/browser.js';
import { openScreen, recordTexts } from './support/screen.js';
import { seedLdImages, sendHdOrdersOverMqtt } from './support/seed.js';
import { startServer, type RunningServer } from './support/server.js';
import { addNewUser, openPage, signIn, type User } from './support/session.js';

/**
 * The HD toast's queue count survives a reload (SPEC §4 queue tracking, seeded from the server's
 * list), and the toast never covers the Dashboard's search and sort bar (issue 22, part 10). One
 * HD job runs at a time, so orders sent together wait.
 */

const IMAGES = ['wait-1.png', 'wait-2.png', 'wait-3.png', 'wait-4.png', 'wait-5.png'];
const MORE = ['wait-6.png', 'wait-7.png'];

describe.skipIf(browserMissing)('the HD toast on load and on the Dashboard', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  let user: User;

  beforeAll(async () => {
    server = await startServer({ BUILTIN_UPSCALER: 'lanczos', JOB_CONCURRENCY: '1' });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });
  beforeEach(async () => {
    // Each test has its own user: its own queue, pause and images.
    user = addNewUser(server, 'toasts');
    await seedLdImages(
      server,
      user,
      [...IMAGES, ...MORE].map((filename) => ({
        filename,
        width: 1024,
        height: 1024,
        metadata: { latent_width: 1024, latent_height: 1024 },
      })),
    );
    page = await openPage(browser, server, { viewport: { width: 1280, height: 800 } });
    await signIn(page, user.username, user.password);
    await connected();
  });
  afterEach(() => page.context().close());

  const connected = () =>
    page
      .getByRole('status', { name: SHELL_TEXTS.connection.label })
      .getByText(SHELL_TEXTS.connection.connected)
      .waitFor();
  const region = () => page.getByRole('status', { name: HD_NOTIFICATION_TEXTS.label });
  const toast = () => region().locator('.toast');
  const queueNotice = () => page.getByRole('status', { name: UPSCALE_TEXTS.queueState });

  it('after a reload the progress toast counts the 6 jobs already waiting (issue 22, part 10)', async () => {
    await openScreen(page, SHELL_TEXTS.nav.upscale);
    await page.getByRole('button', { name: UPSCALE_TEXTS.pause }).click();
    await queueNotice().getByText(UPSCALE_TEXTS.paused).waitFor();
    const orders = [...IMAGES, ...MORE].map((image) => ({ image, sizeLabel: '30x30' as const }));
    await sendHdOrdersOverMqtt(server, user, orders);
    await toast().getByText('HD image generation for wait-7.png added to queue.').waitFor();

    await page.reload();
    await connected();
    await page.getByRole('button', { name: UPSCALE_TEXTS.resume }).waitFor();
    const texts = await recordTexts(region());
    await page.getByRole('button', { name: UPSCALE_TEXTS.resume }).click();
    await queueNotice().waitFor({ state: 'detached' });

    // The first job runs and finishes while the other six wait.
    await toast()
      .getByText(/^HD image generation for wait-\d\.png finished\.$/)
      .waitFor({ timeout: 60_000 });
    const shown = await texts();
    const firstFinished = shown.findIndex((text) => text.endsWith('finished.'));
    const progress = shown.slice(0, firstFinished).filter((text) => text.startsWith('Generating'));
    expect(progress.length).toBeGreaterThan(0);
    for (const text of progress)
      expect(text).toMatch(/^Generating HD\.\.\. \(\d+%\) \(Queued: 6\)$/);
  });

  it('the toast never covers the search and sort bar at 1024, 1280 and 1440 px (issue 22, part 10)', async () => {
    await sendHdOrdersOverMqtt(server, user, [{ image: 'wait-1.png', sizeLabel: '30x30' }]);
    await toast().getByText('HD image generation for wait-1.png finished.').waitFor({
      timeout: 60_000,
    });
    const bar = page.getByRole('search', { name: DASHBOARD_TEXTS.find });
    const overlap = async () => {
      const [a, b] = [await toast().boundingBox(), await bar.boundingBox()];
      if (a === null || b === null) throw new Error('the toast or the search bar is not shown');
      const apart =
        a.x + a.width <= b.x ||
        b.x + b.width <= a.x ||
        a.y + a.height <= b.y ||
        b.y + b.height <= a.y;
      return !apart;
    };
    for (const width of [1024, 1280, 1440]) {
      await page.setViewportSize({ width, height: 800 });
      await expect.poll(overlap, { message: `at ${width} px` }).toBe(false);
      // Still a toast at the top right: by the window's right edge, just under the bar.
      const box = await toast().boundingBox();
      const barBox = await bar.boundingBox();
      expect(width - ((box?.x ?? 0) + (box?.width ?? 0))).toBeLessThan(40);
      expect((box?.y ?? 999) - ((barBox?.y ?? 0) + (barBox?.height ?? 0))).toBeLessThan(40);
      // The bar takes a person's clicks, up to its right end.
      const starred = bar.getByRole('button', { name: DASHBOARD_TEXTS.starred });
      await starred.click();
      expect(await starred.getAttribute('aria-pressed')).toBe('true');
      await starred.click();
      expect(await starred.getAttribute('aria-pressed')).toBe('false');
    }
  });
});
