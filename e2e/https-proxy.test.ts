import fs from 'node:fs';
import https from 'node:https';
import path from 'node:path';
import {
  API_ROUTES,
  GENERATE_TEXTS,
  HD_NOTIFICATION_TEXTS,
  hdTargetSize,
  OUTPUT_TEXTS,
} from '@tessera/contract';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserMissing, launchBrowser } from './support/browser.js';
import {
  documentedSite,
  freePort,
  nginxMissing,
  selfSignedCertificate,
  startNginx,
  tempFolder,
  type RunningNginx,
} from './support/nginx.js';
import { grainyPhoto } from './support/reference.js';
import { openScreen } from './support/screen.js';
import { startServer, type RunningServer } from './support/server.js';
import { collectAlerts, signIn } from './support/session.js';

/**
 * Tessera served over HTTPS as docs/deploy.md says (issue 23, part 2): Debian's nginx with the
 * documented site and a self-signed certificate in front, PUBLIC_URL its https address and
 * TRUST_PROXY nginx's. Chromium, the certificate accepted, goes through the whole flow, its live
 * status over wss://; the login limits count each client's own address, not nginx's.
 */
describe.skipIf(browserMissing || nginxMissing() !== undefined)('HTTPS behind nginx', () => {
  let folder: string;
  let cert: string;
  let server: RunningServer;
  let nginx: RunningNginx;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let alerts: string[];
  const sockets: string[] = [];

  beforeAll(async () => {
    folder = tempFolder('tessera-https-');
    const certificate = await selfSignedCertificate(folder);
    cert = fs.readFileSync(certificate.cert, 'utf8');
    const port = await freePort();
    server = await startServer({
      PUBLIC_URL: `https://localhost:${port}`,
      TRUST_PROXY: '127.0.0.1',
      BUILTIN_UPSCALER: 'lanczos',
    });
    const site = documentedSite({
      port,
      upstreamPort: Number(new URL(server.url).port),
      ...certificate,
    });
    nginx = await startNginx(folder, port, site);
    browser = await launchBrowser();
    context = await browser.newContext({
      baseURL: nginx.url,
      ignoreHTTPSErrors: true,
      acceptDownloads: true,
      viewport: { width: 1280, height: 900 },
    });
    page = await context.newPage();
    page.on('websocket', (socket) => sockets.push(socket.url()));
    alerts = collectAlerts(page);
    fs.writeFileSync(
      path.join(folder, 'slate.jpg'),
      await grainyPhoto({ width: 200, height: 150, base: [70, 75, 80], grain: 60, format: 'jpeg' }),
    );
  });

  afterAll(async () => {
    await browser?.close();
    await nginx?.stop();
    await server?.stop();
    if (folder) fs.rmSync(folder, { recursive: true, force: true });
  });

  it('signs in, generates, follows HD over wss:// and downloads, all through the proxy', async () => {
    await signIn(page, 'admin', server.adminPassword);
    const session = (await context.cookies()).find((c) => c.name === 'tessera_session');
    expect(session).toMatchObject({ secure: true, httpOnly: true, sameSite: 'Strict' });
    const title = await page.request.get(API_ROUTES.title);
    expect(title.headers()['strict-transport-security']).toBe('max-age=31536000');

    // A preview from an uploaded reference (the upload goes through nginx).
    await openScreen(page, 'Generate');
    await page.waitForURL('**/generate');
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: /imagen de referencia/ }).click();
    await (await chooser).setFiles(path.join(folder, 'slate.jpg'));
    await page.getByRole('button', { name: GENERATE_TEXTS.changeReference('slate.jpg') }).waitFor();
    await page.getByLabel('Positive Prompt').fill('riven slate floor tile');
    await page.getByLabel('Negative Prompt').fill('text, watermark');
    const generate = page.getByRole('button', { name: /^Generat/ });
    await generate.click();
    await expect.poll(() => generate.textContent()).toMatch(/^Generating\.\.\. \(\d+%\)$/);
    await expect.poll(() => generate.textContent(), { timeout: 60_000 }).toBe('Generate');
    expect(alerts).toEqual([]);
    const results = page.getByRole('list', { name: GENERATE_TEXTS.results });
    const made = await results
      .getByRole('button')
      .evaluateAll((buttons) => buttons.map((b) => b.getAttribute('aria-label') ?? ''));
    expect(made).toHaveLength(1);
    const ldName = (made[0] ?? '').replace(new RegExp(`^${GENERATE_TEXTS.load('')}`), '');
    // The LD image itself arrived over https: the browser decoded it.
    await expect
      .poll(() =>
        results
          .locator('img')
          .first()
          .evaluate((img: HTMLImageElement) => img.naturalWidth),
      )
      .toBeGreaterThan(0);

    // Order it in HD; the toast, fed by the broker, follows it to its end.
    await openScreen(page, 'Dashboard');
    await page.waitForURL('**/dashboard');
    await page.getByRole('button', { name: ldName, exact: true }).click();
    const details = page.getByRole('dialog', { name: ldName });
    await details.getByLabel('Output Size').selectOption('30x30');
    await details.getByRole('button', { name: 'Generate HD' }).click();
    await details.waitFor({ state: 'detached' });
    await page
      .getByRole('status', { name: HD_NOTIFICATION_TEXTS.label })
      .locator('.toast')
      .getByText(`HD image generation for ${ldName} finished.`)
      .waitFor({ timeout: 120_000 });
    // Every broker connection the page opened went to wss://, through nginx: none was blocked
    // as mixed content, and the toast's live status came over it.
    expect(sockets.length).toBeGreaterThan(0);
    expect(new Set(sockets)).toEqual(new Set([`wss://localhost:${nginx.port}/mqtt`]));

    // The HD download, through nginx.
    await openScreen(page, 'Output');
    await page.waitForURL('**/output');
    const hdName = ldName.replace(/\.png$/, '_30x30.png');
    await page
      .getByRole('list', { name: OUTPUT_TEXTS.images })
      .getByRole('button', { name: hdName, exact: true })
      .click();
    const hdDetails = page.getByRole('dialog', { name: 'HD Image Details' });
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      hdDetails.getByRole('link', { name: 'Download' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(hdName);
    const meta = await sharp(await download.path()).metadata();
    expect({ width: meta.width, height: meta.height }).toEqual(hdTargetSize(1024, 1024, '30x30'));
  }, 240_000);

  it("locks out one client's address after its wrong passwords, not the others behind the same proxy", async () => {
    // Two machines (two loopback source addresses) reach nginx, which reaches Tessera from
    // 127.0.0.1 for both. The first also sends made-up X-Forwarded-For values: nginx appends
    // its real address after them, and Tessera believes nginx only.
    const first = '127.0.0.5';
    const second = '127.0.0.6';
    for (let i = 0; i < 10; i += 1) {
      const answer = await loginThroughNginx(first, 'admin', 'wrong', `198.51.100.${i}`);
      expect(answer).toBe(401);
    }
    expect(await loginThroughNginx(first, 'admin', server.adminPassword)).toBe(429);
    expect(await loginThroughNginx(second, 'admin', server.adminPassword)).toBe(200);
  }, 120_000);

  /** A sign-in sent to nginx over TLS from `localAddress`; resolves with the status. */
  function loginThroughNginx(
    localAddress: string,
    username: string,
    password: string,
    forwardedFor?: string,
  ): Promise<number> {
    const body = JSON.stringify({ username, password });
    return new Promise((resolve, reject) => {
      const request = https.request(
        {
          host: '127.0.0.1',
          port: nginx.port,
          servername: 'localhost',
          ca: cert,
          localAddress,
          agent: false,
          method: 'POST',
          path: API_ROUTES.login,
          headers: {
            'content-type': 'application/json',
            ...(forwardedFor && { 'x-forwarded-for': forwardedFor }),
          },
        },
        (response) => {
          response.resume();
          response.on('end', () => resolve(response.statusCode ?? 0));
        },
      );
      request.on('error', reject);
      request.end(body);
    });
  }
});
