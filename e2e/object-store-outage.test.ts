import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { GENERATE_TEXTS, shownErrorText } from '@tessera/contract';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserMissing, launchBrowser } from './support/browser.js';
import { grainyPhoto } from './support/reference.js';
import { startServer, type RunningServer } from './support/server.js';
import { openPage, signIn } from './support/session.js';
import { openScreen } from './support/screen.js';

/**
 * Issue 23, part 11, in the browser: a preview whose job meets an object-store outage (s3rver,
 * its own process, SIGKILLed while the job is held at its start) shows the readable notice
 * under 'Generating... (n%)' while the job waits, and not once the store is back and the image
 * is made.
 */

const BUCKET = 'tessera';

/** The deploy/local s3rver on `folder`, on `port` (0: one the OS picks); its port once it listens. */
async function startStore(
  folder: string,
  port: number,
): Promise<{ child: ChildProcess; port: number }> {
  const portFile = path.join(path.dirname(folder), `s3-port-${Date.now()}`);
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'deploy/local/s3rver.ts', folder, BUCKET, portFile, String(port)],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  await new Promise<void>((resolve, reject) => {
    let output = '';
    child.stdout?.on('data', (d) => {
      output += String(d);
      if (/s3rver listening on/.test(output)) resolve();
    });
    child.once('exit', (code) => reject(new Error(`s3rver exited with ${code}: ${output}`)));
  });
  return { child, port: Number((await fs.readFile(portFile, 'utf8')).trim()) };
}

describe.skipIf(browserMissing)('Generate through an object-store outage', () => {
  let folder: string;
  let store: { child: ChildProcess; port: number };
  let server: RunningServer;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    folder = await fs.mkdtemp(path.join(os.tmpdir(), 'tessera-e2e-s3-'));
    store = await startStore(path.join(folder, 's3'), 0);
    server = await startServer({
      FILES_URL: `s3://${BUCKET}`,
      S3_ENDPOINT: `http://127.0.0.1:${store.port}`,
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      FILES_RETRY_WINDOW_MS: '300000',
      TESSERA_FAULT_HOLD: 'job-started',
    });
    browser = await launchBrowser();
    await fs.writeFile(
      path.join(folder, 'oak.png'),
      await grainyPhoto({ width: 160, height: 120, base: [120, 80, 50], grain: 60, format: 'png' }),
    );
  });
  afterAll(async () => {
    await page?.context().close();
    await browser?.close();
    await server?.stop();
    store?.child.kill('SIGTERM');
    if (folder) await fs.rm(folder, { recursive: true, force: true });
  });

  it('shows the notice under the progress while the store is down, and removes it after', async () => {
    page = await openPage(browser, server);
    await signIn(page, 'admin', server.adminPassword);
    await openScreen(page, 'Generate');
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: /imagen de referencia/ }).click();
    await (await chooser).setFiles(path.join(folder, 'oak.png'));
    await page.getByRole('button', { name: GENERATE_TEXTS.changeReference('oak.png') }).waitFor();
    await page.getByLabel('Positive Prompt').fill('weathered oak');
    await page.getByLabel('Negative Prompt').fill('blurry');
    await page.getByRole('button', { name: 'Generate' }).click();

    // Nothing tells the test of the hold but the server's output.
    await expect
      .poll(() => server.output(), { timeout: 30_000 })
      .toMatch(/fault hold: job-started/);
    const gone = new Promise((resolve) => store.child.once('exit', resolve));
    store.child.kill('SIGKILL');
    await gone;
    server.signal('SIGUSR2');

    const notice = page
      .getByRole('status')
      .filter({ hasText: shownErrorText('es', 'FILE_STORE_RETRYING') });
    await notice.waitFor({ timeout: 60_000 });
    expect(await page.getByRole('button', { name: /^Generating\.\.\. \(\d+%\)$/ }).count()).toBe(1);

    store = await startStore(path.join(folder, 's3'), store.port);
    await notice.waitFor({ state: 'detached', timeout: 120_000 });
    const results = page.getByRole('list', { name: GENERATE_TEXTS.results });
    await results
      .getByRole('button', { name: new RegExp(`^${GENERATE_TEXTS.load('oak-')}`) })
      .waitFor({ timeout: 60_000 });
    expect(await notice.count()).toBe(0);
  }, 240_000);
});
