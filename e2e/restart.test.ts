import { DASHBOARD_TEXTS, SHELL_TEXTS } from '@tessera/contract';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserMissing, launchBrowser } from './support/browser.js';
import { recordMqttPackets, type SeenPacket } from './support/mqtt-frames.js';
import { seedLdImages } from './support/seed.js';
import { startServer, type RunningServer } from './support/server.js';
import { addNewUser, openPage, signIn } from './support/session.js';

/**
 * Issue 22, part 3: a signed-in tab logs in to the broker with its session's messaging secret
 * (no scrypt), and after the server restarts it reconnects with it and works on.
 */
describe.skipIf(browserMissing)('a signed-in tab across a server restart', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
    page = await openPage(browser, server, { viewport: { width: 1280, height: 800 } });
  });
  afterAll(async () => {
    await page?.context().close();
    await browser?.close();
    await server?.stop();
  });

  const connection = () => page.getByRole('status', { name: SHELL_TEXTS.connection.label });
  const image = (name: string) =>
    page.getByRole('list', { name: DASHBOARD_TEXTS.images }).getByRole('img', { name });
  const accepted = (packets: readonly SeenPacket[]) =>
    packets.filter(
      ({ direction, packet }) =>
        direction === 'received' && packet.cmd === 'connack' && packet.returnCode === 0,
    );

  it('reconnects with its messaging secret after a restart and still gets its answers (issue 22, part 3)', async () => {
    const user = addNewUser(server, 'restart');
    await seedLdImages(server, user, [{ filename: 'slate.png', color: '#445566' }]);
    const packets = recordMqttPackets(page);
    await signIn(page, user.username, user.password);
    await image('slate.png').waitFor();
    await expect
      .poll(() => connection().textContent(), { timeout: 10_000 })
      .toBe(SHELL_TEXTS.connection.connected);

    // The browser logged in with the session's secret, not with the password it keeps.
    const connects = packets().filter(
      ({ direction, packet }) => direction === 'sent' && packet.cmd === 'connect',
    );
    const sentPassword = connects.map(({ packet }) =>
      packet.cmd === 'connect' ? String(packet.password) : '',
    );
    expect(sentPassword).toHaveLength(1);
    expect(sentPassword[0]).toMatch(/^tessera-secret:/);

    await server.restart();
    await expect
      .poll(() => accepted(packets()).length, { timeout: 30_000, interval: 250 })
      .toBeGreaterThanOrEqual(2);
    await expect
      .poll(() => connection().textContent(), { timeout: 10_000 })
      .toBe(SHELL_TEXTS.connection.connected);

    // A new image and Refresh: the commands go out and their answers come back on screen.
    await seedLdImages(server, user, [{ filename: 'granite.png', color: '#667788' }]);
    await page.getByRole('button', { name: 'Refresh' }).click();
    await image('granite.png').waitFor({ timeout: 15_000 });
    expect(await image('slate.png').isVisible()).toBe(true);
  }, 90_000);
});
