import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { API_ROUTES } from '@tessera/contract';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserMissing, launchBrowser } from './support/browser.js';
import { startServer, type RunningServer } from './support/server.js';
import { addNewUser, openPage, signIn } from './support/session.js';
import { openScreen } from './support/screen.js';

/**
 * Another application on the same host, on another port: the same site as Tessera, so the
 * browser sends Tessera's SameSite=Strict session cookie with its requests, but another origin.
 * Its page posts to Tessera as soon as it loads and says when every request has settled.
 */
async function startHostilePage(tesseraUrl: string): Promise<{ url: string; close(): void }> {
  const posts = [API_ROUTES.pauseHdQueue, API_ROUTES.logout].map(
    (route) => `${tesseraUrl}${route}`,
  );
  const html = `<!doctype html><title>Another app</title><p id="state">posting</p>
<script>
(async () => {
  for (const url of ${JSON.stringify(posts)}) {
    // no-cors: the answer is opaque, but the request goes, with the cookie, as an attack's would.
    await fetch(url, { method: 'POST', mode: 'no-cors', credentials: 'include' }).catch(() => {});
  }
  document.getElementById('state').textContent = 'posted';
})();
</script>`;
  const server = http.createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html' }).end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/`, close: () => server.close() };
}

describe.skipIf(browserMissing)('requests from another origin (issue 22, part 1)', () => {
  let server: RunningServer;
  let browser: Browser;
  let hostile: { url: string; close(): void };

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
    hostile = await startHostilePage(server.url);
  });
  afterAll(async () => {
    hostile?.close();
    await browser?.close();
    await server?.stop();
  });

  it('a page of another app on the same host neither pauses the HD queue nor signs the user out (issue 22, part 1)', async () => {
    const user = addNewUser(server, 'origin');
    const page = await openPage(browser, server);
    await signIn(page, user.username, user.password);

    // The user visits the other app in another tab of the same browser.
    const refused: number[] = [];
    const other = await page.context().newPage();
    other.on('response', (response) => {
      if (response.url().startsWith(server.url)) refused.push(response.status());
    });
    await other.goto(hostile.url);
    await other.getByText('posted').waitFor();
    // The answers' events may reach the test just after the page's text.
    await expect.poll(() => refused).toEqual([403, 403]);

    // Back in Tessera: still signed in, and the queue runs.
    await page.reload();
    await openScreen(page, 'Upscale');
    const queueButton = page.getByRole('button', { name: /^(Pause|Resume) queue$/ });
    expect(await queueButton.textContent()).toBe('Pause queue');
    expect(await page.getByText('Your queue is paused').count()).toBe(0);
    expect(page.url()).toMatch(/\/upscale$/);
    await page.context().close();
  });
});
