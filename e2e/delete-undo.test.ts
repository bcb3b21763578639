import fs from 'node:fs/promises';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { browserMissing, launchBrowser } from './support/browser.js';
import { buildHdCommand, DASHBOARD_TEXTS, GALLERY_TEXTS } from '@tessera/contract';
import { orderHdOverMqtt, seedLdImages, type SeedImage } from './support/seed.js';
import { openScreen } from './support/screen.js';
import { startServer, type RunningServer } from './support/server.js';
import { addNewUser, openPage, signIn, userFolder, type User } from './support/session.js';

/**
 * Deleting with the undo window (docs/web.md): every delete made inside the window is undone
 * together, and a deleted tile keeps its place under the pointer, so a quick second click on
 * the same spot never reaches the next image's Delete (issue 22, part 8).
 */

/** `count` images, each a minute newer than the one before: the grid shows the last first. */
function images(count: number): SeedImage[] {
  return Array.from({ length: count }, (_, i) => ({
    filename: `img-${i + 1}.png`,
    width: 32,
    height: 32,
    metadata: { latent_width: 1024, latent_height: 1024 },
    modifiedAt: new Date(Date.UTC(2025, 0, 1) + i * 60_000),
  }));
}

describe.skipIf(browserMissing)('Deleting with a way back', () => {
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
    page = await openPage(browser, server, { viewport: { width: 1280, height: 800 } });
  });
  afterEach(() => page.context().close());

  const grid = () => page.getByRole('list', { name: DASHBOARD_TEXTS.images });
  const tile = (name: string) =>
    grid()
      .getByRole('listitem')
      .filter({ has: page.getByRole('img', { name }) });
  const count = () => page.getByRole('status', { name: GALLERY_TEXTS.countLabel });
  const bar = () => page.getByRole('status', { name: GALLERY_TEXTS.deletion });
  const ldFiles = async (user: User) =>
    (await fs.readdir(userFolder(server, user.username, 'ld'))).sort();

  /** The delete-low-definition commands the page publishes, by the frames it sends. */
  function recordDeleteCommands(): string[] {
    const sent: string[] = [];
    page.on('websocket', (socket) => {
      socket.on('framesent', ({ payload }) => {
        const text = typeof payload === 'string' ? payload : payload.toString('latin1');
        for (const part of text.split('command/delete-low-definition/user/').slice(1)) {
          sent.push(/"filename":"([^"]+)"/.exec(part)?.[1] ?? '?');
        }
      });
    });
    return sent;
  }

  /** Hovers the image's tile (or row) and clicks its Delete twice at one point, 200 ms apart. */
  async function doubleDelete(name: string, item: Locator = tile(name)) {
    await item.hover();
    const box = await item.getByRole('button', { name: `Delete ${name}` }).boundingBox();
    if (box === null) throw new Error('Delete is not on screen');
    const x = box.x + box.width / 2;
    const y = box.y + box.height / 2;
    await page.mouse.click(x, y);
    // The second press is held 200 ms, the pointer still in place, as a quick double click is.
    await page.mouse.click(x, y, { delay: 200 });
  }

  /** Where the image's tile starts across the grid. */
  async function xOf(name: string): Promise<number> {
    const box = await tile(name).boundingBox();
    if (box === null) throw new Error(`${name} is not on screen`);
    return box.x;
  }

  async function open(user: User, shown: string) {
    await signIn(page, user.username, user.password);
    await expect.poll(() => count().textContent(), { timeout: 15_000 }).toBe(shown);
  }

  it('a quick second click on Delete deletes nothing more; deletes in the window are undone together (issue 22, part 8)', async () => {
    const user = addNewUser(server, 'undo');
    await seedLdImages(server, user, images(6));
    const sent = recordDeleteCommands();
    await open(user, GALLERY_TEXTS.count(6));

    const nextPlace = await xOf('img-5.png');
    await doubleDelete('img-6.png');
    await expect.poll(() => count().textContent()).toBe(GALLERY_TEXTS.count(5));
    expect(await bar().textContent()).toContain(GALLERY_TEXTS.deleted(1));
    // The place stays empty under the pointer: the next image did not move into it.
    expect(await xOf('img-5.png')).toBe(nextPlace);

    // A second delete inside the window joins the first: one bar, one Undo for both.
    await tile('img-3.png').hover();
    await tile('img-3.png').getByRole('button', { name: 'Delete img-3.png' }).click();
    await expect.poll(() => count().textContent()).toBe(GALLERY_TEXTS.count(4));
    await bar().getByText(GALLERY_TEXTS.deleted(2)).waitFor();
    expect(await bar().count()).toBe(1);
    await bar().getByRole('button', { name: GALLERY_TEXTS.undo }).click();
    await expect.poll(() => count().textContent()).toBe(GALLERY_TEXTS.count(6));
    await bar().waitFor({ state: 'detached' });

    await page.reload();
    await expect
      .poll(() => count().textContent(), { timeout: 15_000 })
      .toBe(GALLERY_TEXTS.count(6));
    expect(sent).toEqual([]);
    expect((await ldFiles(user)).length).toBe(6);
  });

  it('the kept place closes when the pointer leaves; a group left alone is deleted whole when the window ends (issue 22, part 8)', async () => {
    const user = addNewUser(server, 'undo');
    await seedLdImages(server, user, images(4));
    const sent = recordDeleteCommands();
    await open(user, GALLERY_TEXTS.count(4));

    const firstPlace = await xOf('img-4.png');
    const secondPlace = await xOf('img-3.png');
    await doubleDelete('img-4.png');
    await expect.poll(() => count().textContent()).toBe(GALLERY_TEXTS.count(3));
    expect(await xOf('img-3.png')).toBe(secondPlace);
    // Away from the grid, the next image takes the empty place.
    await page.mouse.move(1, 1);
    await expect.poll(() => xOf('img-3.png')).toBe(firstPlace);

    await tile('img-1.png').hover();
    await tile('img-1.png').getByRole('button', { name: 'Delete img-1.png' }).click();
    await bar().getByText(GALLERY_TEXTS.deleted(2)).waitFor();
    await bar().waitFor({ state: 'detached', timeout: 15_000 });
    await expect.poll(() => ldFiles(user)).toEqual(['img-2.png', 'img-3.png']);
    expect([...sent].sort()).toEqual(['img-1.png', 'img-4.png']);
  });
  it('in the List view too: a quick second click deletes nothing more, Undo brings all back (issue 22, part 8)', async () => {
    const user = addNewUser(server, 'undo');
    await seedLdImages(server, user, images(4));
    const sent = recordDeleteCommands();
    await open(user, GALLERY_TEXTS.count(4));
    await page.getByRole('button', { name: 'List' }).click();
    const row = (name: string) => page.getByRole('row').filter({ hasText: name });
    const yOf = async (name: string) => (await row(name).boundingBox())?.y;
    const nextRow = await yOf('img-3.png');

    await doubleDelete('img-4.png', row('img-4.png'));
    await expect.poll(() => count().textContent()).toBe(GALLERY_TEXTS.count(3));
    expect(await bar().textContent()).toContain(GALLERY_TEXTS.deleted(1));
    expect(await yOf('img-3.png')).toBe(nextRow);
    await bar().getByRole('button', { name: GALLERY_TEXTS.undo }).click();
    await expect.poll(() => count().textContent()).toBe(GALLERY_TEXTS.count(4));

    await page.reload();
    await expect
      .poll(() => count().textContent(), { timeout: 15_000 })
      .toBe(GALLERY_TEXTS.count(4));
    expect(sent).toEqual([]);
    expect((await ldFiles(user)).length).toBe(4);
  });

  it("Output: a quick second click on an HD row's Delete deletes nothing more (issue 22, part 8)", async () => {
    const user = addNewUser(server, 'undohd');
    const square = { latent_width: 1024, latent_height: 1024, kseed: 42 };
    await seedLdImages(
      server,
      user,
      ['slate.png', 'clay.png'].map((filename) => ({
        filename,
        width: 1024,
        height: 1024,
        metadata: square,
      })),
    );
    const made: string[] = [];
    for (const image of ['slate.png', 'clay.png']) {
      const command = buildHdCommand({
        id: `undo-${image}-${Date.now()}`,
        user: user.username,
        image,
        metadata: square,
        sizeLabel: '30x30',
      });
      made.push(await orderHdOverMqtt(server, user, command));
    }
    await signIn(page, user.username, user.password);
    await openScreen(page, 'Output');
    await expect
      .poll(() => count().textContent(), { timeout: 15_000 })
      .toBe(GALLERY_TEXTS.count(2));
    await page.getByRole('button', { name: 'List' }).click();
    const row = (name: string) => page.getByRole('row').filter({ hasText: name });
    // The first row's image: without its place kept, the other row would move under the pointer.
    const firstName = (await page.locator('tbody .row-name').first().textContent()) ?? '';
    const other = made.find((name) => name !== firstName) ?? '';

    await doubleDelete(firstName, row(firstName));
    await expect.poll(() => count().textContent()).toBe(GALLERY_TEXTS.count(1));
    expect(await bar().textContent()).toContain(GALLERY_TEXTS.deleted(1));
    await bar().getByRole('button', { name: GALLERY_TEXTS.undo }).click();
    await expect.poll(() => count().textContent()).toBe(GALLERY_TEXTS.count(2));
    await page.reload();
    await expect
      .poll(() => count().textContent(), { timeout: 15_000 })
      .toBe(GALLERY_TEXTS.count(2));
    expect(await row(other).count()).toBe(1);
    expect(await row(firstName).count()).toBe(1);
  });
});
