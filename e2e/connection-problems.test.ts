import { SHELL_TEXTS } from '@tessera/contract';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { browserMissing, launchBrowser } from './support/browser.js';
import { startServer, type RunningServer } from './support/server.js';
import { openPage, signIn } from './support/session.js';

/**
 * Connection problems of the messaging client, made to happen for real between the page and the
 * broker, read as SPEC §8 writes them in the connection status's tooltip (issue 22, part 15).
 */

/** mqtt.js's keepalive is 60 s (SPEC §9): a PINGREQ at 60 s, given up 30 s later. */
const KEEPALIVE_GIVEN_UP_MS = 90_000;

describe.skipIf(browserMissing)('messaging connection problems', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });
  beforeEach(async () => {
    page = await openPage(browser, server);
  });
  afterEach(() => page.context().close());

  const connection = () => page.getByRole('status', { name: SHELL_TEXTS.connection.label });

  /** Every tooltip the connection status shows from now on, in order, each change once. */
  async function recordTooltips(): Promise<() => Promise<string[]>> {
    await connection().evaluate((node) => {
      const seen: string[] = [];
      (window as unknown as { e2eTooltips: string[] }).e2eTooltips = seen;
      new MutationObserver(() => {
        const title = node.getAttribute('title');
        if (title !== null && seen.at(-1) !== title) seen.push(title);
      }).observe(node, { attributes: true, attributeFilter: ['title'] });
    });
    return () => page.evaluate(() => (window as unknown as { e2eTooltips: string[] }).e2eTooltips);
  }

  it("a broker that stops answering reads 'keepalive timeout' (issue 22, part 15)", async () => {
    // The line to the broker goes silent one way: the page still sends (its PINGREQ too), and
    // nothing comes back, as when a proxy on the way hangs.
    let silent = false;
    await page.routeWebSocket(/\/mqtt$/, (socket) => {
      const broker = socket.connectToServer();
      socket.onMessage((message) => broker.send(message));
      broker.onMessage((message) => {
        if (!silent) socket.send(message);
      });
    });
    await signIn(page, 'admin', server.adminPassword);
    await connection().getByText(SHELL_TEXTS.connection.connected).waitFor();
    const tooltips = await recordTooltips();
    silent = true;

    const keepalive = async () =>
      (await tooltips()).find((text) => text.toLowerCase() === 'keepalive timeout');
    await expect
      .poll(keepalive, { timeout: KEEPALIVE_GIVEN_UP_MS + 30_000, interval: 1000 })
      .toBeDefined();
    expect(await keepalive()).toBe('keepalive timeout');
  }, 180_000);

  it("a broker that never answers CONNECT reads 'connack timeout' (issue 22, part 15)", async () => {
    // The WebSocket opens, and what the page sends goes nowhere.
    await page.routeWebSocket(/\/mqtt$/, () => undefined);
    await signIn(page, 'admin', server.adminPassword);
    // SPEC §7's connect timeout is 4 s; the reconnecting status keeps the problem in its tooltip.
    await expect
      .poll(() => connection().getAttribute('title'), { timeout: 20_000 })
      .toBe('connack timeout');
    expect(await connection().textContent()).not.toBe(SHELL_TEXTS.connection.connected);
  });
});
