import { buildHdCommand, HD_NOTIFICATION_TEXTS, OUTPUT_TEXTS } from '@tessera/contract';
import type { BrowserContext, Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { browserMissing, launchBrowser } from './support/browser.js';
import { orderHdOverMqtt, seedLdImages, sendHdOrdersOverMqtt } from './support/seed.js';
import { startServer, type RunningServer } from './support/server.js';
import { signIn } from './support/session.js';

/**
 * Issue 13, feature 12: the count of HD jobs running or queued in the sidebar, and an opt-in
 * browser notification when an HD image finishes while the tab is in the background, in
 * Chromium with the notification permission granted.
 */

const SQUARE = { latent_width: 1024, latent_height: 1024 };

interface Shown {
  title: string;
  body: string;
}

declare global {
  interface Window {
    shownNotifications: Shown[];
  }
}

describe.skipIf(browserMissing)('HD notifications and the sidebar count', () => {
  let server: RunningServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  /** Another tab of the same browser window. */
  let other: Page;
  let admin: { username: string; password: string };

  beforeAll(async () => {
    server = await startServer({ BUILTIN_UPSCALER: 'lanczos', JOB_CONCURRENCY: '1' });
    admin = { username: 'admin', password: server.adminPassword };
    await seedLdImages(
      server,
      admin,
      ['big-1.png', 'small-1.png', 'small-2.png'].map((filename) => ({
        filename,
        width: 1024,
        height: 1024,
        metadata: SQUARE,
      })),
    );
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });
  beforeEach(async () => {
    context = await browser.newContext({ baseURL: server.url, permissions: ['notifications'] });
    // Every notification the page shows is noted when the browser reports it shown.
    await context.addInitScript(() => {
      window.shownNotifications = [];
      const Real = window.Notification;
      class Noted extends Real {
        constructor(title: string, options?: NotificationOptions) {
          super(title, options);
          this.addEventListener('show', () =>
            window.shownNotifications.push({ title, body: options?.body ?? '' }),
          );
        }
      }
      window.Notification = Noted;
    });
    page = await context.newPage();
    await signIn(page, admin.username, admin.password);
    // A second tab, and both without Playwright's focus emulation, so that only the tab in front
    // has the focus. (Set after the sign-in's page loads: a new document brings emulation back.)
    other = await context.newPage();
    for (const tab of [page, other]) {
      await (
        await context.newCDPSession(tab)
      ).send('Emulation.setFocusEmulationEnabled', {
        enabled: false,
      });
    }
    await other.goto('/login');
    await other.bringToFront();
    await page.bringToFront();
    await expect.poll(() => page.evaluate(() => document.hasFocus())).toBe(true);
  });
  afterEach(() => context.close());

  const badge = () => page.getByRole('status', { name: OUTPUT_TEXTS.jobsBadge });
  const shown = () => page.evaluate(() => window.shownNotifications);
  const toastSays = (text: string) =>
    page.getByRole('status', { name: HD_NOTIFICATION_TEXTS.label }).getByText(text).waitFor();
  let orders = 0;
  const order = (image: string) =>
    orderHdOverMqtt(
      server,
      admin,
      buildHdCommand({
        id: `notify-${++orders}-${Date.now()}`,
        user: admin.username,
        image,
        metadata: SQUARE,
        sizeLabel: '30x30',
      }),
    );

  /** The other tab comes to the front, as a person switching tabs. */
  async function switchToAnotherTab(): Promise<void> {
    await other.bringToFront();
    await expect.poll(() => page.evaluate(() => document.hasFocus())).toBe(false);
  }

  it('the sidebar counts the HD jobs running or queued, and the count goes when they end (issue 13)', async () => {
    expect(await badge().count()).toBe(0);
    await sendHdOrdersOverMqtt(server, admin, [
      { image: 'big-1.png', sizeLabel: '120x120' },
      { image: 'small-1.png', sizeLabel: '30x30' },
      { image: 'small-2.png', sizeLabel: '30x30' },
    ]);
    await expect.poll(() => badge().textContent()).toBe('3');
    expect(await badge().getAttribute('title')).toBe('3 trabajos HD en curso o en cola');
    await expect.poll(() => badge().textContent(), { timeout: 90_000 }).toBe('1');
    await badge().waitFor({ state: 'detached', timeout: 90_000 });
  });

  it('with notifications on, an HD image finished while the tab is in the background is notified; in front it is not (issue 13)', async () => {
    const toggle = page.getByRole('button', { name: HD_NOTIFICATION_TEXTS.label });
    expect(await toggle.getAttribute('aria-pressed')).toBe('false');

    // Not opted in: nothing, even in the background.
    await switchToAnotherTab();
    await order('small-1.png');
    // The page has taken the finished status in; the exact list at the end shows none came later.
    await toastSays('HD image generation for small-1.png finished.');
    expect(await shown()).toEqual([]);

    await page.bringToFront();
    await toggle.click();
    await expect.poll(() => toggle.getAttribute('aria-pressed')).toBe('true');

    // In front, the toast tells it: no notification.
    await order('small-2.png');
    await toastSays('HD image generation for small-2.png finished.');
    expect(await shown()).toEqual([]);

    await switchToAnotherTab();
    const made = await order('small-1.png');
    await expect.poll(shown).toEqual([
      {
        title: HD_NOTIFICATION_TEXTS.readyTitle,
        body: HD_NOTIFICATION_TEXTS.readyBody(made, 'small-1.png'),
      },
    ]);

    // The choice holds for the next visit.
    await page.bringToFront();
    await page.reload();
    await expect
      .poll(() =>
        page
          .getByRole('button', { name: HD_NOTIFICATION_TEXTS.label })
          .getAttribute('aria-pressed'),
      )
      .toBe('true');
  });
});
