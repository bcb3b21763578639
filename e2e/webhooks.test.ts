import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { DIALOG_TEXTS, GENERATE_TEXTS, WEBHOOK_TEXTS } from '@tessera/contract';
import type { Browser, Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserMissing, launchBrowser } from './support/browser.js';
import { grainyPhoto } from './support/reference.js';
import { openScreen } from './support/screen.js';
import { startServer, type RunningServer } from './support/server.js';
import { addNewUser, collectAlerts, openPage, signIn } from './support/session.js';

const T = WEBHOOK_TEXTS;

/**
 * Issue 30, part 3, in the browser: a member registers a webhook on its screen, sees its secret
 * once, makes a preview, and finds the delivery listed with its result; the receiver on loopback
 * got it once, with a signature the Standard Webhooks library accepts.
 */
describe.skipIf(browserMissing)('webhooks on their screen', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  let folder: string;
  let receiver: http.Server;
  const received: { headers: Record<string, string>; body: string }[] = [];
  /** The endpoint the first test registers, and its secret; the rotation test goes on from them. */
  let endpointUrl = '';
  let firstSecret = '';

  beforeAll(async () => {
    receiver = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const headers = Object.fromEntries(
          Object.entries(req.headers).map(([name, value]) => [name, String(value)]),
        );
        received.push({ headers, body: Buffer.concat(chunks).toString('utf8') });
        res.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    server = await startServer();
    browser = await launchBrowser();
    folder = await fs.mkdtemp(path.join(os.tmpdir(), 'tessera-webhooks-'));
    await fs.writeFile(
      path.join(folder, 'oak.png'),
      await grainyPhoto({ width: 160, height: 120, base: [120, 80, 50], grain: 60, format: 'png' }),
    );
  });
  afterAll(async () => {
    await page?.context().close();
    await browser?.close();
    await server?.stop();
    receiver?.closeAllConnections();
    await new Promise((resolve) => receiver?.close(resolve));
    if (folder) await fs.rm(folder, { recursive: true, force: true });
  });

  it('registers an endpoint, makes a preview, and lists its delivery with the result', async () => {
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/tessera`;
    endpointUrl = url;
    const member = addNewUser(server, 'hooks');
    page = await openPage(browser, server);
    const alerts = collectAlerts(page);
    await signIn(page, member.username, member.password);

    await page.getByRole('link', { name: T.navLabel }).click();
    await page.getByRole('heading', { name: T.title }).waitFor();
    await page.getByText(T.empty).waitFor();
    await page.getByRole('button', { name: T.add }).click();
    await page.getByLabel(T.urlLabel).fill(url);
    await page.getByRole('button', { name: T.create }).click();
    const secret = (await page.getByRole('status', { name: T.secretTitle }).textContent()) ?? '';
    expect(secret).toMatch(/^whsec_/);
    firstSecret = secret;
    await page.getByRole('button', { name: DIALOG_TEXTS.done, exact: true }).click();
    const card = page.getByRole('article', { name: url });
    await card.getByText(T.active, { exact: true }).waitFor();

    // A preview, made as a person makes one.
    await openScreen(page, 'Generate');
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: /imagen de referencia/ }).click();
    await (await chooser).setFiles(path.join(folder, 'oak.png'));
    await page.getByRole('button', { name: GENERATE_TEXTS.changeReference('oak.png') }).waitFor();
    await page.getByLabel('Positive Prompt').fill('weathered oak planks');
    await page.getByLabel('Negative Prompt').fill('blurry');
    const generate = page.getByRole('button', { name: /^Generat/ });
    await generate.click();
    await expect.poll(() => generate.textContent()).toMatch(/^Generating/);
    await expect
      .poll(
        () =>
          page
            .getByRole('list', { name: GENERATE_TEXTS.results })
            .getByRole('button', { name: new RegExp(`^${GENERATE_TEXTS.load('')}`) })
            .count(),
        { timeout: 45_000 },
      )
      .toBe(1);
    expect(alerts).toEqual([]);

    // Its delivery, listed with what the receiver answered.
    await page.getByRole('link', { name: T.navLabel }).click();
    await card.getByRole('button', { name: T.deliveries }).click();
    const table = card.getByRole('table', { name: T.deliveries });
    const row = table.getByRole('row').filter({ hasText: T.events['preview.finished'] });
    await row
      .getByText(`${T.states.delivered} · ${T.statusCode(200)}`)
      .waitFor({ timeout: 15_000 });
    await expect.poll(() => row.locator('td').nth(2).textContent()).toBe('1');

    expect(received.length).toBe(1);
    const [request] = received;
    if (!request) throw new Error('the receiver got nothing');
    const payload = new Webhook(secret).verify(request.body, request.headers);
    expect(payload).toMatchObject({
      type: 'preview.finished',
      data: { user: member.username, filename: expect.stringMatching(/\.png$/) },
    });
  });

  it('rotates the secret: the new one is shown once, and both sign until the grace ends', async () => {
    if (!endpointUrl) throw new Error('the first test registered no endpoint');
    const card = page.getByRole('article', { name: endpointUrl });
    await card.getByRole('button', { name: T.rotateSecret }).click();
    const confirm = page.getByRole('dialog', { name: T.rotateTitle });
    await confirm.getByRole('button', { name: T.rotate }).click();
    const shown = page.getByRole('status', { name: T.newSecretTitle });
    const secret = (await shown.textContent()) ?? '';
    expect(secret).toMatch(/^whsec_/);
    expect(secret).not.toBe(firstSecret);
    await page.getByRole('button', { name: DIALOG_TEXTS.done, exact: true }).click();
    await shown.waitFor({ state: 'detached' });

    // The card tells until when the old secret signs too; the new one is nowhere on the page,
    // nor after a reload.
    const [graceNote = ''] = T.previousSecretUntil('\u0000').split('\u0000');
    await card.getByText(graceNote).waitFor();
    expect(await page.content()).not.toContain(secret);
    await page.reload();
    await card.getByText(graceNote).waitFor();
    expect(await page.content()).not.toContain(secret);

    // A test event: a receiver still on the old secret accepts it, and one on the new.
    const before = received.length;
    await card.getByRole('button', { name: T.sendTest }).click();
    await expect.poll(() => received.length, { timeout: 15_000 }).toBe(before + 1);
    const request = received[before];
    if (!request) throw new Error('the receiver got nothing');
    for (const key of [firstSecret, secret]) {
      expect(new Webhook(key).verify(request.body, request.headers)).toMatchObject({
        type: 'webhook.test',
      });
    }
  });
});
