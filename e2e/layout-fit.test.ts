import {
  buildHdCommand,
  DASHBOARD_TEXTS,
  GALLERY_TEXTS,
  SHELL_TEXTS,
  UPSCALE_TEXTS,
} from '@tessera/contract';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { browserMissing, launchBrowser } from './support/browser.js';
import { commandOverMqtt, orderHdOverMqtt, seedLdImages } from './support/seed.js';
import { startServer, type RunningServer } from './support/server.js';
import { addNewUser, openPage, signIn, type User } from './support/session.js';
import { openScreen } from './support/screen.js';

/**
 * Things that must fit where they are shown (issue 13, defect 7): names in the List view, the
 * Output table's last heading, a long tag in the tools column, the HD queue's Refresh by its
 * title. Each is measured in a real browser at the window sizes people use.
 */

const SQUARE = { latent_width: 1024, latent_height: 1024, kseed: 42 };
/** A name of 15 characters, as the engines make them. */
const NAME_15 = 'stone-tile1.png';

/** Whether the element shows all of its text: nothing cut by an ellipsis or the edge. */
/** The element's box; it must be on screen. */
async function boxOf(element: Locator) {
  const box = await element.boundingBox();
  if (box === null) throw new Error('not on screen');
  return box;
}

function showsWhole(element: Locator): Promise<boolean> {
  return element.evaluate((node) => node.scrollWidth <= node.clientWidth);
}

describe.skipIf(browserMissing)('layout: everything fits', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    server = await startServer({ BUILTIN_UPSCALER: 'lanczos' });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });
  beforeEach(async () => {
    page = await openPage(browser, server, { viewport: { width: 1024, height: 768 } });
  });
  afterEach(() => page.context().close());

  async function userWithImage(): Promise<User> {
    const user = addNewUser(server, 'fit');
    await seedLdImages(server, user, [
      { filename: NAME_15, width: 1024, height: 1024, metadata: SQUARE },
    ]);
    return user;
  }

  it('the List view shows a 15-character name whole, with the Tags column empty and with a tag (issue 13)', async () => {
    const user = await userWithImage();
    await signIn(page, user.username, user.password);
    await page.getByRole('button', { name: 'List' }).click();
    const name = page.getByRole('table').getByRole('button', { name: NAME_15, exact: true });
    await name.waitFor();
    expect(await showsWhole(name)).toBe(true);
    expect(await showsWhole(page.getByRole('columnheader', { name: 'Name' }))).toBe(true);

    await commandOverMqtt(server, user, 'create-tag', {
      id: 't1',
      name: 'Marble',
      color: '#aa3355',
    });
    await commandOverMqtt(server, user, 'assign-tag', { id: 't1', filename: NAME_15 });
    await page.reload();
    await page.getByRole('table').getByText('Marble').waitFor();
    expect(await showsWhole(name)).toBe(true);
  });

  it("the Output table's 'Download / Delete' heading stays on one line inside the table (issue 13)", async () => {
    const user = await userWithImage();
    await orderHdOverMqtt(
      server,
      user,
      buildHdCommand({
        id: `fit-${Date.now()}`,
        user: user.username,
        image: NAME_15,
        metadata: SQUARE,
        sizeLabel: '30x30',
      }),
    );
    await signIn(page, user.username, user.password);
    await openScreen(page, 'Output');
    await page.getByRole('button', { name: 'List' }).click();
    const heading = page.getByRole('columnheader', { name: 'Download / Delete' });
    await heading.waitFor();
    expect(await showsWhole(heading)).toBe(true);
    const lines = await heading.evaluate((th) => {
      const range = document.createRange();
      range.selectNodeContents(th);
      return new Set(Array.from(range.getClientRects()).map((rect) => Math.round(rect.top))).size;
    });
    expect(lines).toBe(1);
    const table = await boxOf(page.getByRole('table'));
    const box = await boxOf(heading);
    expect(box.x + box.width).toBeLessThanOrEqual(table.x + table.width + 0.5);
  });

  it('enabling a long tag keeps the tools column its width (issue 13)', async () => {
    const user = await userWithImage();
    // The longest name a tag may have, in the widest letters.
    const long = 'W'.repeat(15);
    await commandOverMqtt(server, user, 'create-tag', { id: 't2', name: long, color: '#336699' });
    await signIn(page, user.username, user.password);
    const tools = page.getByRole('complementary', {
      name: GALLERY_TEXTS.tools(DASHBOARD_TEXTS.title),
    });
    const toggle = tools.getByRole('button', { name: long, exact: true });
    await toggle.waitFor();
    const before = await boxOf(tools);
    await toggle.click();
    await expect.poll(() => toggle.getAttribute('aria-pressed')).toBe('true');
    const after = await boxOf(tools);
    expect(after.width).toBe(before.width);
    // Nothing spills sideways inside the column either.
    expect(await showsWhole(tools)).toBe(true);
  });

  it('the HD queue page has Refresh and Pause queue on the title line (issue 13)', async () => {
    const user = addNewUser(server, 'fit');
    await signIn(page, user.username, user.password);
    await openScreen(page, SHELL_TEXTS.nav.upscale);
    const title = page.getByRole('heading', { name: UPSCALE_TEXTS.title });
    const refresh = page.getByRole('button', { name: 'Refresh' });
    await refresh.waitFor();
    const t = await boxOf(title);
    const r = await boxOf(refresh);
    expect(Math.abs(t.y + t.height / 2 - (r.y + r.height / 2))).toBeLessThanOrEqual(2);
    expect(r.x).toBeGreaterThan(t.x + t.width);
    // The queue's other buttons sit beside it on that line, none over another.
    const pause = await boxOf(page.getByRole('button', { name: UPSCALE_TEXTS.pause }));
    expect(pause.x).toBeGreaterThanOrEqual(r.x + r.width);
    expect(Math.abs(pause.y - r.y)).toBeLessThanOrEqual(1);
  });
  /** Window widths people use, from the smallest the List views must fit. */
  const WIDTHS = [1024, 1280, 1440, 1920];

  /**
   * Whether every cell of the table's header and first row ends inside the box the table scrolls
   * in (nothing cut at the right, nothing to scroll sideways for), and the row's Delete takes a
   * click where it shows.
   */
  async function fitsWhole(row: Locator, name: string) {
    const table = page.getByRole('table');
    const scroller = await table.evaluate((node) => {
      const box = node.parentElement as HTMLElement;
      const rect = box.getBoundingClientRect();
      return { right: rect.left + box.clientWidth, sideways: box.scrollWidth - box.clientWidth };
    });
    expect(scroller.sideways, `at ${page.viewportSize()?.width} px`).toBeLessThanOrEqual(0);
    const cells = [
      ...(await table.getByRole('columnheader').all()),
      ...(await row.getByRole('cell').all()),
    ];
    for (const cell of cells) {
      const box = await boxOf(cell);
      const what = `${await cell.textContent()} at ${page.viewportSize()?.width} px`;
      expect(box.x + box.width, what).toBeLessThanOrEqual(scroller.right + 0.5);
    }
    expect(scroller.right).toBeLessThanOrEqual(page.viewportSize()?.width ?? 0);
    // A trial click fails if anything else would take it, or if it is out of reach.
    await row.getByRole('button', { name: `Delete ${name}` }).click({ trial: true, timeout: 2000 });
  }

  it('the Dashboard List view fits every column, its actions too, at widths from 1024 px (issue 22, part 14)', async () => {
    const user = await userWithImage();
    await commandOverMqtt(server, user, 'create-tag', {
      id: 't1',
      name: 'Marble',
      color: '#aa3355',
    });
    await commandOverMqtt(server, user, 'assign-tag', { id: 't1', filename: NAME_15 });
    await signIn(page, user.username, user.password);
    await page.getByRole('button', { name: 'List' }).click();
    const row = page.getByRole('row').filter({ hasText: NAME_15 });
    await row.getByText('Marble').waitFor();
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 768 });
      await fitsWhole(row, NAME_15);
      expect(await showsWhole(row.getByRole('button', { name: NAME_15, exact: true }))).toBe(true);
    }
  });

  it('the Output List view fits Download and Delete at widths from 1024 px (issue 22, part 14)', async () => {
    const user = await userWithImage();
    const made = await orderHdOverMqtt(
      server,
      user,
      buildHdCommand({
        id: `fit-wide-${Date.now()}`,
        user: user.username,
        image: NAME_15,
        metadata: SQUARE,
        sizeLabel: '30x30',
      }),
    );
    await signIn(page, user.username, user.password);
    await openScreen(page, 'Output');
    await page.getByRole('button', { name: 'List' }).click();
    const row = page.getByRole('row').filter({ hasText: made });
    await row.waitFor();
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 768 });
      await fitsWhole(row, made);
    }
  });
});
