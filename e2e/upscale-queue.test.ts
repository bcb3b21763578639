import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { browserMissing, launchBrowser } from './support/browser.js';
import { seedLdImages, sendHdOrdersOverMqtt } from './support/seed.js';
import { startServer, type RunningServer } from './support/server.js';
import { openPage, signIn } from './support/session.js';

/**
 * /upscale, the HD queue (beyond the spec): the user's HD jobs by state, kept live from the
 * status stream, and cancelling a job that still waits. One job runs at a time, so orders sent
 * together queue up.
 */

interface HdJobAnswer {
  jobs: { id: string; image: string; status: string }[];
}

describe.skipIf(browserMissing)('the HD queue page', () => {
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
      ['big-1.png', 'small-1.png', 'small-2.png', 'small-3.png', 'big-2.png', 'small-4.png'].map(
        (filename) => ({
          filename,
          width: 1024,
          height: 1024,
          metadata: { latent_width: 1024, latent_height: 1024 },
        }),
      ),
    );
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

  async function openQueue() {
    await signIn(page, admin.username, admin.password);
    await page.getByRole('link', { name: 'Upscale', exact: true }).click();
    await page.waitForURL('**/upscale');
    await page.getByRole('heading', { name: 'HD queue' }).waitFor();
    await page
      .getByRole('status', { name: 'Messaging connection' })
      .getByText('Connected')
      .waitFor();
  }

  it('lists the jobs queued, running with progress, finished with download, cancelled — live — and cancels a queued one', async () => {
    await openQueue();
    await page.getByText('No HD jobs yet.').waitFor();

    await sendHdOrdersOverMqtt(server, admin, [
      { image: 'big-1.png', sizeLabel: '120x120' },
      { image: 'small-1.png', sizeLabel: '30x30' },
      { image: 'small-2.png', sizeLabel: '30x30' },
      { image: 'small-3.png', sizeLabel: '30x30' },
    ]);

    // Without a reload: the page follows the status stream.
    const running = row('Running', 'big-1.png');
    await running.waitFor({ timeout: 20_000 });
    await expect
      .poll(async () => Number(await running.getByRole('progressbar').getAttribute('value')), {
        timeout: 30_000,
        interval: 100,
      })
      .toBeGreaterThan(0);
    for (const image of ['small-1.png', 'small-2.png', 'small-3.png']) {
      await row('Queued', image).waitFor();
    }
    expect(await row('Queued', 'small-3.png').textContent()).toContain('30x30');

    await row('Queued', 'small-3.png')
      .getByRole('button', { name: 'Cancel HD job for small-3.png (30x30)' })
      .click();
    await row('Cancelled', 'small-3.png').waitFor();
    expect(await row('Cancelled', 'small-3.png').textContent()).toContain('Cancelled');

    for (const image of ['big-1.png', 'small-1.png', 'small-2.png']) {
      await row('Finished', image).waitFor({ timeout: 90_000 });
    }
    await group('Running').waitFor({ state: 'detached' });
    await group('Queued').waitFor({ state: 'detached' });
    // The cancelled job never ran.
    expect(await row('Cancelled', 'small-3.png').count()).toBe(1);
    const answer = (await (await page.request.get('/api/query/hd-jobs')).json()) as HdJobAnswer;
    expect(answer.jobs.find((job) => job.image === 'small-3.png')?.status).toBe('cancelled');

    const link = row('Finished', 'small-1.png').getByRole('link', { name: 'Download HD Image' });
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
    await row('Running', 'big-2.png').waitFor({ timeout: 20_000 });
    await row('Queued', 'small-4.png').waitFor();
    frozen = true;

    // Meanwhile the queue moves on: small-4 starts (or even ends).
    await expect
      .poll(
        async () => {
          const answer = (await (
            await page.request.get('/api/query/hd-jobs')
          ).json()) as HdJobAnswer;
          return answer.jobs.find((job) => job.image === 'small-4.png')?.status;
        },
        { timeout: 60_000, interval: 250 },
      )
      .not.toBe('queued');

    await row('Queued', 'small-4.png')
      .getByRole('button', { name: 'Cancel HD job for small-4.png (30x30)' })
      .click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toContain('Only a queued job can be cancelled');
    expect(await alert.textContent()).toContain('small-4.png');
    // The list is fetched again and shows where the job really is.
    await expect
      .poll(async () => row('Queued', 'small-4.png').count(), { timeout: 10_000 })
      .toBe(0);
  });
});
