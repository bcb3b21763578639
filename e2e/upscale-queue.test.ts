import {
  API_ROUTES,
  buildHdCommand,
  SHELL_TEXTS,
  shownErrorText,
  UPSCALE_TEXTS,
} from '@tessera/contract';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { browserMissing, launchBrowser } from './support/browser.js';
import {
  commandOverMqtt,
  orderHdOverMqtt,
  seedLdImages,
  sendHdOrdersOverMqtt,
} from './support/seed.js';
import { startServer, type RunningServer } from './support/server.js';
import { addNewUser, openPage, signIn, type User } from './support/session.js';
import { openScreen } from './support/screen.js';

/**
 * /upscale, the HD queue (beyond the spec): the user's HD jobs by state, kept live from the
 * status stream, cancelling a job that still waits, moving one to the top and pausing the queue
 * (issue 13, feature 13). One job runs at a time, so orders sent together queue up.
 */

interface HdJobAnswer {
  jobs: { id: string; image: string; status: string }[];
}

describe.skipIf(browserMissing)('the HD queue page', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  let admin: { username: string; password: string };
  /** Another user, whose HD jobs show the runner passing over a paused queue. */
  let other: User;

  beforeAll(async () => {
    server = await startServer({ BUILTIN_UPSCALER: 'lanczos', JOB_CONCURRENCY: '1' });
    admin = { username: 'admin', password: server.adminPassword };
    await seedLdImages(
      server,
      admin,
      [
        'big-1.png',
        'small-1.png',
        'small-2.png',
        'small-3.png',
        'big-2.png',
        'small-4.png',
        'big-3.png',
        'order-1.png',
        'order-2.png',
        'order-3.png',
      ].map((filename) => ({
        filename,
        width: 1024,
        height: 1024,
        metadata: { latent_width: 1024, latent_height: 1024 },
      })),
    );
    other = addNewUser(server, 'other');
    await seedLdImages(server, other, [
      {
        filename: 'other.png',
        width: 1024,
        height: 1024,
        metadata: { latent_width: 1024, latent_height: 1024 },
      },
    ]);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });
  beforeEach(async () => {
    page = await openPage(browser, server, { acceptDownloads: true });
  });
  afterEach(() => page.context().close());

  const group = (name: string) => page.getByRole('region', { name, exact: true });
  const row = (name: string, image: string) =>
    group(name)
      .getByRole('row')
      .filter({ has: page.getByRole('rowheader', { name: image }) });

  /**
   * Proves that the runner passed over the admin's queued jobs: another user's two HD jobs, ordered
   * one after the other, both run. Owners take turns, and once the other user has been served the
   * admin's turn comes first (served longer ago, or never), so the runner, which runs one job at
   * a time, claims the other's second job only if the admin's jobs could not be claimed.
   */
  async function otherUsersJobsRun() {
    for (let n = 0; n < 2; n++) {
      await orderHdOverMqtt(
        server,
        other,
        buildHdCommand({
          id: `other-${Date.now()}-${n}`,
          user: other.username,
          image: 'other.png',
          metadata: {},
          sizeLabel: '30x30',
        }),
      );
    }
  }

  async function openQueue() {
    await signIn(page, admin.username, admin.password);
    await openScreen(page, SHELL_TEXTS.nav.upscale);
    await page.waitForURL('**/upscale');
    await page.getByRole('heading', { name: UPSCALE_TEXTS.title }).waitFor();
    await page
      .getByRole('status', { name: SHELL_TEXTS.connection.label })
      .getByText(SHELL_TEXTS.connection.connected)
      .waitFor();
  }

  it('lists the jobs queued, running with progress, finished with download, cancelled — live — and cancels a queued one', async () => {
    await openQueue();
    await page.getByText(UPSCALE_TEXTS.empty).waitFor();

    await sendHdOrdersOverMqtt(server, admin, [
      { image: 'big-1.png', sizeLabel: '120x120' },
      { image: 'small-1.png', sizeLabel: '30x30' },
      { image: 'small-2.png', sizeLabel: '30x30' },
      { image: 'small-3.png', sizeLabel: '30x30' },
    ]);

    // Without a reload: the page follows the status stream.
    const running = row(UPSCALE_TEXTS.groups.running, 'big-1.png');
    await running.waitFor({ timeout: 20_000 });
    await expect
      .poll(async () => Number(await running.getByRole('progressbar').getAttribute('value')), {
        timeout: 30_000,
        interval: 100,
      })
      .toBeGreaterThan(0);
    for (const image of ['small-1.png', 'small-2.png', 'small-3.png']) {
      await row(UPSCALE_TEXTS.groups.queued, image).waitFor();
    }
    expect(await row(UPSCALE_TEXTS.groups.queued, 'small-3.png').textContent()).toContain('30x30');

    await row(UPSCALE_TEXTS.groups.queued, 'small-3.png')
      .getByRole('button', { name: UPSCALE_TEXTS.cancelJob('small-3.png', '30x30') })
      .click();
    await row(UPSCALE_TEXTS.groups.cancelled, 'small-3.png').waitFor();
    expect(await row(UPSCALE_TEXTS.groups.cancelled, 'small-3.png').textContent()).toContain(
      UPSCALE_TEXTS.cancelled,
    );

    for (const image of ['big-1.png', 'small-1.png', 'small-2.png']) {
      await row(UPSCALE_TEXTS.groups.finished, image).waitFor({ timeout: 90_000 });
    }
    await group(UPSCALE_TEXTS.groups.running).waitFor({ state: 'detached' });
    await group(UPSCALE_TEXTS.groups.queued).waitFor({ state: 'detached' });
    // The cancelled job never ran.
    expect(await row(UPSCALE_TEXTS.groups.cancelled, 'small-3.png').count()).toBe(1);
    const answer = (await (await page.request.get(API_ROUTES.hdJobs)).json()) as HdJobAnswer;
    expect(answer.jobs.find((job) => job.image === 'small-3.png')?.status).toBe('cancelled');

    const link = row(UPSCALE_TEXTS.groups.finished, 'small-1.png').getByRole('link', {
      name: 'Download HD Image',
    });
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    expect(download.suggestedFilename()).toMatch(/^small-1_30x30\.(png|jpg)$/);
  });

  it("shows the server's error when the job started before the cancel reached it (409)", async () => {
    // The page's view of the stream can be frozen, as on a network hiccup, while HTTP still works.
    let frozen = false;
    await page.routeWebSocket(/\/mqtt$/, (socket) => {
      const broker = socket.connectToServer();
      socket.onMessage((message) => broker.send(message));
      broker.onMessage((message) => {
        if (!frozen) socket.send(message);
      });
    });
    await openQueue();
    await sendHdOrdersOverMqtt(server, admin, [
      { image: 'big-2.png', sizeLabel: '120x120' },
      { image: 'small-4.png', sizeLabel: '30x30' },
    ]);
    await row(UPSCALE_TEXTS.groups.running, 'big-2.png').waitFor({ timeout: 20_000 });
    await row(UPSCALE_TEXTS.groups.queued, 'small-4.png').waitFor();
    frozen = true;

    // Meanwhile the queue moves on: small-4 starts (or even ends).
    await expect
      .poll(
        async () => {
          const answer = (await (await page.request.get(API_ROUTES.hdJobs)).json()) as HdJobAnswer;
          return answer.jobs.find((job) => job.image === 'small-4.png')?.status;
        },
        { timeout: 60_000, interval: 250 },
      )
      .not.toBe('queued');

    await row(UPSCALE_TEXTS.groups.queued, 'small-4.png')
      .getByRole('button', { name: UPSCALE_TEXTS.cancelJob('small-4.png', '30x30') })
      .click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toContain(shownErrorText('es', 'HD_JOB_NOT_QUEUED'));
    expect(await alert.textContent()).toContain('small-4.png');
    // The list is fetched again and shows where the job really is.
    await expect
      .poll(async () => row(UPSCALE_TEXTS.groups.queued, 'small-4.png').count(), {
        timeout: 10_000,
      })
      .toBe(0);
  });

  it('pauses the queue (a running job finishes, nothing else starts), moves a job to the top, and resumes in that order', async () => {
    await openQueue();
    const images = ['order-1.png', 'order-2.png', 'order-3.png'];
    const queued = async () =>
      (await group(UPSCALE_TEXTS.groups.queued).getByRole('rowheader').allTextContents()).filter(
        (name) => name === 'big-3.png' || images.includes(name),
      );
    // Every image the Running group shows, in the order they first appear there.
    await page.evaluate((running) => {
      const started: string[] = [];
      (window as unknown as { e2eStarted: string[] }).e2eStarted = started;
      new MutationObserver(() => {
        for (const section of Array.from(document.querySelectorAll('section'))) {
          const title = document.getElementById(section.getAttribute('aria-labelledby') ?? '');
          if (title?.textContent !== running) continue;
          for (const cell of Array.from(section.querySelectorAll('tbody th'))) {
            const name = cell.textContent ?? '';
            if (!started.includes(name)) started.push(name);
          }
        }
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    }, UPSCALE_TEXTS.groups.running);
    const started = () =>
      page.evaluate(() => (window as unknown as { e2eStarted: string[] }).e2eStarted);

    await page.getByRole('button', { name: UPSCALE_TEXTS.pause }).click();
    const notice = page.getByRole('status', { name: UPSCALE_TEXTS.queueState });
    await notice.getByText(UPSCALE_TEXTS.paused).waitFor();
    await sendHdOrdersOverMqtt(server, admin, [
      { image: 'big-3.png', sizeLabel: '120x120' },
      ...images.map((image) => ({ image, sizeLabel: '30x30' as const })),
    ]);
    await expect
      .poll(queued, { timeout: 20_000 })
      .toEqual(['big-3.png', 'order-1.png', 'order-2.png', 'order-3.png']);
    // Paused: the runner runs another user's jobs past them, and none of them starts.
    await otherUsersJobsRun();
    expect(await group(UPSCALE_TEXTS.groups.running).count()).toBe(0);
    expect(await started()).toEqual([]);

    // Resumed, the first starts; paused again while it runs, it finishes and the rest wait.
    await page.getByRole('button', { name: UPSCALE_TEXTS.resume }).click();
    await row(UPSCALE_TEXTS.groups.running, 'big-3.png').waitFor({ timeout: 20_000 });
    await page.getByRole('button', { name: UPSCALE_TEXTS.pause }).click();
    await notice.getByText(UPSCALE_TEXTS.paused).waitFor();
    await row(UPSCALE_TEXTS.groups.finished, 'big-3.png').waitFor({ timeout: 90_000 });
    await otherUsersJobsRun();
    expect(await group(UPSCALE_TEXTS.groups.running).count()).toBe(0);
    expect(await queued()).toEqual(images);

    await row(UPSCALE_TEXTS.groups.queued, 'order-3.png')
      .getByRole('button', { name: UPSCALE_TEXTS.moveJob('order-3.png', '30x30') })
      .click();
    await expect.poll(queued).toEqual(['order-3.png', 'order-1.png', 'order-2.png']);
    expect(await row(UPSCALE_TEXTS.groups.queued, 'order-3.png').textContent()).toContain(
      UPSCALE_TEXTS.next,
    );

    await page.getByRole('button', { name: UPSCALE_TEXTS.resume }).click();
    await notice.waitFor({ state: 'detached' });
    for (const image of images)
      await row(UPSCALE_TEXTS.groups.finished, image).waitFor({ timeout: 60_000 });
    expect(await started()).toEqual(['big-3.png', 'order-3.png', 'order-1.png', 'order-2.png']);
    // The server ran them in that order too: the HD list is newest first.
    const listed = (await commandOverMqtt(server, admin, 'list-high-definition', {
      page: 1,
      size: 100,
    })) as { images: { filename: string }[] };
    const made = listed.images
      .map((image) => image.filename)
      .filter((name) => /^(order-\d|big-3)_/.test(name))
      .reverse();
    expect(made.map((name) => name.split('_')[0])).toEqual([
      'big-3',
      'order-3',
      'order-1',
      'order-2',
    ]);
  }, 180_000);
});
