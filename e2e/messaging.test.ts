import { DASHBOARD_TEXTS } from '@tessera/contract';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { browserMissing, launchBrowser } from './support/browser.js';
import { publishedTo, recordMqttPackets, type SeenPacket } from './support/mqtt-frames.js';
import { commandOverMqtt, seedLdImages } from './support/seed.js';
import { startServer, type RunningServer } from './support/server.js';
import { addNewUser, openPage, signIn, type User } from './support/session.js';

/**
 * Issue 13, defect 6, read off the wire: the MQTT packets the browser sends and receives. A list
 * command goes out once per load or Refresh, and only after the broker has acknowledged the
 * subscription its answer arrives on.
 */

/**
 * How far the page's clock is moved after a load: a duplicate command sent late, by a retry or a
 * refetch on a timer, would be sent within this. The clock is the test's, so this takes no time.
 */
const SETTLE_MS = 1500;

describe.skipIf(browserMissing)('the messaging client on the wire', () => {
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
    page = await openPage(browser, server, { viewport: { width: 1280, height: 800 } });
    // The page's timers on a clock the test moves (it runs on as usual until moved).
    await page.clock.install();
  });
  afterEach(() => page.context().close());

  /** A user with one tag and one image, so both lists have something to show. */
  async function newUser(): Promise<User> {
    const user = addNewUser(server, 'wire');
    await seedLdImages(server, user, [{ filename: 'slate.png', color: '#445566' }]);
    await commandOverMqtt(server, user, 'create-tag', {
      id: 'tag-slate',
      name: 'Slate',
      color: '#445566',
    });
    return user;
  }

  async function dashboardShown() {
    await page
      .getByRole('region', { name: 'Tags' })
      .getByRole('button', { name: 'Slate', exact: true })
      .waitFor();
    await page
      .getByRole('list', { name: DASHBOARD_TEXTS.images })
      .getByRole('img', { name: 'slate.png' })
      .waitFor();
  }

  /** Where, among the packets of its socket, each command was sent after the SUBACK. */
  function sentBeforeSuback(packets: readonly SeenPacket[], commands: readonly SeenPacket[]) {
    return commands.filter((command) => {
      const suback = packets.findIndex(
        (seen) =>
          seen.socket === command.socket &&
          seen.direction === 'received' &&
          seen.packet.cmd === 'suback',
      );
      return suback === -1 || suback > packets.indexOf(command);
    });
  }

  it('a dashboard load sends list-tag once, after the subscription is acknowledged', async () => {
    const user = await newUser();
    const packets = recordMqttPackets(page);
    await signIn(page, user.username, user.password);
    await dashboardShown();
    await page.clock.runFor(SETTLE_MS);

    const seen = packets();
    const listTag = publishedTo(seen, `command/list-tag/user/${user.username}`);
    const listImages = publishedTo(seen, `command/list-low-definition/user/${user.username}`);
    expect(listTag).toHaveLength(1);
    expect(listImages).toHaveLength(1);
    expect(sentBeforeSuback(seen, [...listTag, ...listImages])).toEqual([]);
  });

  it('Refresh sends refresh-low-definition, then list-tag once', async () => {
    const user = await newUser();
    // Recorded from the start: a frame parser must see the stream from its first byte.
    const packets = recordMqttPackets(page);
    await signIn(page, user.username, user.password);
    await dashboardShown();
    await page.clock.runFor(SETTLE_MS);
    const loaded = packets().length;

    await page.getByRole('button', { name: 'Refresh' }).click();
    await page.getByRole('button', { name: 'Refreshing...' }).waitFor({ state: 'detached' });
    await dashboardShown();
    await page.clock.runFor(SETTLE_MS);

    const seen = packets().slice(loaded);
    expect(publishedTo(seen, `command/refresh-low-definition/user/${user.username}`)).toHaveLength(
      1,
    );
    expect(publishedTo(seen, `command/list-tag/user/${user.username}`)).toHaveLength(1);
    expect(publishedTo(seen, `command/list-low-definition/user/${user.username}`)).toHaveLength(1);
  });
});
