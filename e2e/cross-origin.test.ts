import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { API_ROUTES, STATE_CHANGING_ROUTES } from '@tessera/contract';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserMissing, launchBrowser } from './support/browser.js';
import { grainyPhoto } from './support/reference.js';
import { startServer, type RunningServer } from './support/server.js';
import { addNewUser, openPage, signIn } from './support/session.js';

/** What the page of another app sends: one request per state-changing route of Tessera's. */
interface Attack {
  url: string;
  /** The preview route takes a multipart form with a reference image, as a form post sends it. */
  form?: Record<string, string>;
}

/**
 * Another application on the same host, on another port: the same site as Tessera, so the
 * browser sends Tessera's SameSite=Strict session cookie with its requests, but another origin.
 * Its page sends every attack as soon as it loads and says when all have settled.
 */
async function startHostilePage(
  attacks: Attack[],
  png: Buffer,
): Promise<{ url: string; close(): void }> {
  const html = `<!doctype html><title>Another app</title><p id="state">posting</p>
<script>
(async () => {
  const png = Uint8Array.from(atob(${JSON.stringify(png.toString('base64'))}), (c) => c.charCodeAt(0));
  for (const attack of ${JSON.stringify(attacks)}) {
    let body;
    if (attack.form) {
      // What a <form enctype="multipart/form-data"> posts: no preflight, the cookie goes along.
      body = new FormData();
      body.append('image', new Blob([png], { type: 'image/png' }), 'bricks.png');
      for (const [key, value] of Object.entries(attack.form)) body.append(key, value);
    } else {
      // A text/plain body needs no preflight either, and JSON parsers may still read it.
      body = JSON.stringify({ id: 'job-1', username: 'intruder', password: 'intruder-pass' });
    }
    // no-cors: the answer is opaque, but the request goes, with the cookie, as an attack's would.
    await fetch(attack.url, { method: 'POST', mode: 'no-cors', credentials: 'include', body })
      .catch(() => {});
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

/** The preview form the web app posts (SPEC §7), for `username`. */
function previewForm(username: string): Record<string, string> {
  return {
    id: 'job-cross-origin',
    user: username,
    image: 'bricks.png',
    cliptextencode_585: 'weathered red brick wall',
    cliptextencode_716: 'blurry, text',
    ipadapter_weight: '0.9',
    style: '0',
    ksampler_cfg: '3.5',
    ksampler_denoise: '1',
    use_fixed_seed: 'True',
    latent_width: '1024',
    latent_height: '1024',
    Kseed: '10',
    seamless: 'disable',
    circularVAE: 'disable',
  };
}

describe.skipIf(browserMissing)('requests from another origin (issue 22, part 1)', () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('a page of another app on the same host changes nothing through any state-changing route (issue 22, part 1)', async () => {
    const user = addNewUser(server, 'origin');
    const page = await openPage(browser, server);
    await signIn(page, user.username, user.password);

    // Every state-changing route the app registers (app.test.ts holds the list to the app). The
    // pause after the resume, so a paused queue would show; the sign-out last, so the others
    // would still have found the session.
    const last: string[] = [API_ROUTES.pauseHdQueue, API_ROUTES.logout];
    const routes = [...STATE_CHANGING_ROUTES].sort(
      (a, b) => last.indexOf(a.path) - last.indexOf(b.path),
    );
    // A path parameter (the admin routes' :username, issue 29) gets a plausible value.
    const concrete = (path: string) => path.replace(/:[A-Za-z]+/g, user.username);
    const attacks: Attack[] = routes.map(({ path }) => ({
      url: `${server.url}${concrete(path)}`,
      ...(path === API_ROUTES.generatePreview && { form: previewForm(user.username) }),
    }));
    const png = await grainyPhoto({
      width: 64,
      height: 64,
      base: [150, 60, 40],
      grain: 40,
      format: 'png',
    });
    const hostile = await startHostilePage(attacks, png);

    // The user visits the other app in another tab of the same browser.
    const answers = new Map<string, number>();
    const other = await page.context().newPage();
    other.on('response', (response) => {
      const url = response.url();
      if (url.startsWith(server.url)) answers.set(url.slice(server.url.length), response.status());
    });
    try {
      await other.goto(hostile.url);
      await other.getByText('posted').waitFor();
      // The answers' events may reach the test just after the page's text.
      await expect
        .poll(() => Object.fromEntries(answers))
        .toEqual(Object.fromEntries(routes.map(({ path }) => [concrete(path), 403])));
    } finally {
      hostile.close();
    }

    // Nothing changed: still signed in, no preview job, the HD queue not paused.
    const api = page.context().request;
    expect((await api.get(API_ROUTES.session)).status()).toBe(200);
    expect((await api.get(API_ROUTES.previewStatus)).status()).toBe(404);
    expect(await (await api.get(API_ROUTES.hdJobs)).json()).toMatchObject({ paused: false });
    await page.context().close();
  });
});
