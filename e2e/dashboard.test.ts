import fs from 'node:fs/promises';
import path from 'node:path';
import { DASHBOARD_TEXTS, formatImageDate, GALLERY_TEXTS, TAG_TEXTS } from '@tessera/contract';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SQLite } from '../server/src/store/sqlite-driver.js';
import { browserMissing, launchBrowser } from './support/browser.js';
import { focusAfterTabs, recordTexts } from './support/screen.js';
import { commandOverMqtt, seedLdImages, type SeedImage } from './support/seed.js';
import { startServer, type RunningServer } from './support/server.js';
import { addNewUser, openPage, signIn, userFolder, type User } from './support/session.js';

/**
 * The Dashboard, the LD gallery of SPEC §2 (checklist D1–D13, Z1, Z2), against the real server
 * and broker: both views, the grid's columns, empty and error states, refresh and deletion.
 */

/** A square image's metadata: a 60x60 HD size by its factors, and a fixed date. */
function metadataOf(i: number): Record<string, unknown> {
  return {
    cliptextencode_585: `stone texture ${i}`,
    latent_width: 1024,
    latent_height: 1024,
    rescale_factor_cr711: 1.74,
    scale_by_latent707: 1,
    rescale_factor_cr701: 1.5,
    scale_by_image692: 2.7,
    created_at: 1_735_732_800 + i * 3600,
  };
}

/** `count` images, each a minute newer than the one before: the list shows the last first. */
function images(count: number, prefix = 'img'): SeedImage[] {
  const colours = ['#8a6f4e', '#4e6f8a', '#6f8a4e', '#8a4e6f', '#b5651d'];
  return Array.from({ length: count }, (_, i) => ({
    filename: `${prefix}-${String(i + 1).padStart(3, '0')}.png`,
    width: 32,
    height: 32,
    metadata: metadataOf(i),
    color: colours[i % colours.length],
    modifiedAt: new Date(Date.UTC(2025, 0, 1) + i * 60_000),
  }));
}

/** Page and size of each list-low-definition command the page publishes, from its frames. */
function recordListRequests(page: Page): [number, number][] {
  const requests: [number, number][] = [];
  page.on('websocket', (socket) => {
    socket.on('framesent', ({ payload }) => {
      const text = typeof payload === 'string' ? payload : payload.toString('latin1');
      // One frame may carry several MQTT packets: read every command in it.
      for (const part of text.split('command/list-low-definition/user/').slice(1)) {
        const page = /"page":(\d+)/.exec(part)?.[1];
        const size = /"size":(\d+)/.exec(part)?.[1];
        if (page && size) requests.push([Number(page), Number(size)]);
      }
    });
  });
  return requests;
}

describe.skipIf(browserMissing)('Dashboard: the LD gallery', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  /** 130 images: a second page of the list, and enough to fill five columns. */
  let many: User;

  const newUser = () => addNewUser(server, 'dash');

  beforeAll(async () => {
    server = await startServer();
    many = newUser();
    await seedLdImages(server, many, images(130));
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
  const tiles = () => grid().getByRole('listitem');
  const count = () => page.getByRole('status', { name: GALLERY_TEXTS.countLabel });

  async function open(user: User) {
    await signIn(page, user.username, user.password);
  }

  it('[D1][D6][D9][D12][Z1][Z2] browses all pages of 100 in the grid and in the table', async () => {
    const requests = recordListRequests(page);
    await open(many);
    await expect
      .poll(() => count().textContent(), { timeout: 15_000 })
      .toBe(GALLERY_TEXTS.count(130));
    // Pages of 100 until a page comes back short.
    expect(requests).toEqual([
      [1, 100],
      [2, 100],
    ]);

    // Gallery: thumbnails that really load, by name, newest first.
    const first = grid().getByRole('img', { name: 'img-130.png' });
    await first.waitFor();
    await expect
      .poll(() => first.evaluate((img) => (img as HTMLImageElement).naturalWidth))
      .toBeGreaterThan(0);
    expect(await grid().getByRole('img').first().getAttribute('loading')).toBe('lazy');

    // List: a real table with the columns of SPEC §2.
    await page.getByRole('button', { name: 'List' }).click();
    expect(await page.getByRole('button', { name: 'List' }).getAttribute('aria-pressed')).toBe(
      'true',
    );
    const table = page.getByRole('table');
    await table.waitFor();
    const headers = await table.getByRole('columnheader').allTextContents();
    expect(headers.slice(1, 6)).toEqual(['Preview', 'Name', 'Tags', 'Size', 'Date']);
    expect(await table.getByRole('checkbox', { name: GALLERY_TEXTS.selectAll }).count()).toBe(1);
    const row = table.getByRole('row').filter({ hasText: 'img-130.png' });
    expect(
      await row.getByRole('checkbox', { name: GALLERY_TEXTS.select('img-130.png') }).count(),
    ).toBe(1);
    const cells = await row.getByRole('cell').allTextContents();
    expect(cells[2]).toBe('img-130.png');
    expect(cells[4]).toBe('60x60');
    expect(cells[5]).toBe(formatImageDate(metadataOf(129)));
    expect(await table.getAttribute('aria-rowcount')).toBe('131');

    // The choice of view stays for the tab; clicking a name opens the Image Details modal.
    await page.getByRole('button', { name: 'img-130.png', exact: true }).click();
    const details = page.getByRole('dialog');
    await details.waitFor();
    await page.keyboard.press('Escape');
    await details.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Gallery' }).click();
    await grid().waitFor();
    await page.getByRole('button', { name: 'img-129.png', exact: true }).click();
    await page.getByRole('dialog').waitFor();
  });

  it('[D5] the grid has 5 columns, 3 below 1100 px, 2 below 700 px and 1 below 500 px', async () => {
    await open(many);
    await tiles().first().waitFor();
    const columns = async () => {
      const boxes = await tiles().evaluateAll((items) =>
        items.map((item) => Math.round(item.getBoundingClientRect().left)),
      );
      return new Set(boxes).size;
    };
    for (const [width, expected] of [
      [1280, 5],
      [1100, 5],
      [1099, 3],
      [700, 3],
      [699, 2],
      [500, 2],
      [499, 1],
      [380, 1],
    ] as const) {
      await page.setViewportSize({ width, height: 800 });
      await expect.poll(columns, { message: `${width} px wide` }).toBe(expected);
    }
  });

  it('[D5] only the tiles near the viewport are in the DOM, and scrolling brings others', async () => {
    await open(many);
    await expect
      .poll(() => count().textContent(), { timeout: 15_000 })
      .toBe(GALLERY_TEXTS.count(130));
    const rendered = await tiles().count();
    expect(rendered).toBeGreaterThan(5);
    expect(rendered).toBeLessThan(130);
    await grid().evaluate((list) => list.parentElement?.scrollTo(0, list.scrollHeight));
    await grid().getByRole('img', { name: 'img-001.png' }).waitFor();
  });

  it("[D10] a user without images sees 'No se han encontrado imágenes.'", async () => {
    await open(newUser());
    await page.getByText('No se han encontrado imágenes.').waitFor();
    expect(await tiles().count()).toBe(0);
  });

  it('[D2][D3] Refresh reads Refreshing... while it indexes new files, then reloads the images', async () => {
    const user = newUser();
    await seedLdImages(server, user, images(2, 'old'));
    await open(user);
    await expect.poll(() => count().textContent()).toBe(GALLERY_TEXTS.count(2));

    // A file another pipeline put in the folder shows only after Refresh.
    const png = await sharp({
      create: { width: 32, height: 32, channels: 3, background: '#123456' },
    })
      .png()
      .toBuffer();
    await fs.writeFile(path.join(userFolder(server, user.username, 'ld'), 'new-one.png'), png);
    // Every label the button shows, however briefly.
    const labels = await recordTexts(page.getByRole('button', { name: 'Refresh' }));
    await page.getByRole('button', { name: 'Refresh' }).click();
    await grid().getByRole('img', { name: 'new-one.png' }).waitFor();
    await expect.poll(() => count().textContent()).toBe(GALLERY_TEXTS.count(3));
    expect(await labels()).toContain('Refreshing...');
    expect(await page.getByRole('button', { name: 'Refresh' }).isEnabled()).toBe(true);
  });

  it('[D7] a tile shows its checkbox, tag-assign button and Delete on hover or when selected', async () => {
    const user = newUser();
    await seedLdImages(server, user, images(3));
    await open(user);
    const tile = tiles().filter({ has: page.getByRole('img', { name: 'img-002.png' }) });
    await tile.waitFor();
    const actions = tile.locator('.tile-actions');
    const opacity = () => actions.evaluate((element) => getComputedStyle(element).opacity);
    await page.mouse.move(1, 1);
    await expect.poll(opacity).toBe('0');
    await tile.hover();
    await expect.poll(opacity).toBe('1');
    expect(
      await tile.getByRole('checkbox', { name: GALLERY_TEXTS.select('img-002.png') }).isVisible(),
    ).toBe(true);
    expect(
      await tile.getByRole('button', { name: GALLERY_TEXTS.assignTags('img-002.png') }).isVisible(),
    ).toBe(true);
    expect(await tile.getByRole('button', { name: 'Delete img-002.png' }).textContent()).toBe(
      'Delete',
    );

    await tile.getByRole('checkbox', { name: GALLERY_TEXTS.select('img-002.png') }).check();
    // Away with the pointer and the focus: only the selection keeps the controls shown now.
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.mouse.move(1, 1);
    await expect.poll(opacity).toBe('1');
  });

  it('[D7][D8] deletes one image, then a selection with Delete Selection', async () => {
    const user = newUser();
    await seedLdImages(server, user, images(5));
    await open(user);
    await expect.poll(() => count().textContent()).toBe(GALLERY_TEXTS.count(5));
    expect(await page.getByRole('button', { name: 'Delete Selection' }).count()).toBe(0);

    const tile = (name: string) => tiles().filter({ has: page.getByRole('img', { name }) });
    await tile('img-001.png').hover();
    await tile('img-001.png').getByRole('button', { name: 'Delete img-001.png' }).click();
    await tile('img-001.png').waitFor({ state: 'detached' });
    await expect.poll(() => count().textContent()).toBe(GALLERY_TEXTS.count(4));

    for (const name of ['img-002.png', 'img-004.png']) {
      await tile(name).hover();
      await tile(name)
        .getByRole('checkbox', { name: GALLERY_TEXTS.select(name) })
        .check();
    }
    await page.getByText(GALLERY_TEXTS.selectedCount(2)).waitFor();
    await page.getByRole('button', { name: 'Delete Selection' }).click();
    await expect.poll(() => count().textContent()).toBe(GALLERY_TEXTS.count(2));
    expect(await page.getByRole('button', { name: 'Delete Selection' }).count()).toBe(0);

    // Closing the undo bar sends the deletion at once; then it is gone on the server too.
    await page.getByRole('button', { name: GALLERY_TEXTS.deleteNow }).click();
    await expect
      .poll(async () => (await fs.readdir(userFolder(server, user.username, 'ld'))).length)
      .toBe(2);
    await page.reload();
    await expect
      .poll(() => count().textContent(), { timeout: 15_000 })
      .toBe(GALLERY_TEXTS.count(2));
    expect(
      await grid()
        .getByRole('img')
        .evaluateAll((imgs) => imgs.map((i) => i.getAttribute('alt')).sort()),
    ).toEqual(['img-003.png', 'img-005.png']);
    const left = await fs.readdir(userFolder(server, user.username, 'ld'));
    expect(left.sort()).toEqual(['img-003.png', 'img-005.png']);
  });

  it('[D6][D8] the table selects rows and deletes the selection', async () => {
    const user = newUser();
    await seedLdImages(server, user, images(3));
    await open(user);
    await page.getByRole('button', { name: 'List' }).click();
    const table = page.getByRole('table');
    await table.getByRole('checkbox', { name: GALLERY_TEXTS.select('img-001.png') }).check();
    await table.getByRole('checkbox', { name: GALLERY_TEXTS.select('img-003.png') }).check();
    await page.getByRole('button', { name: 'Delete Selection' }).click();
    await expect.poll(() => count().textContent()).toBe(GALLERY_TEXTS.count(1));
    expect(await table.getByRole('row').filter({ hasText: 'img-002.png' }).count()).toBe(1);
  });

  it('[D13] a deletion the server refuses is logged only', async () => {
    const user = newUser();
    await seedLdImages(server, user, images(2));
    const logged: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') logged.push(message.text());
    });
    await open(user);
    await expect.poll(() => count().textContent()).toBe(GALLERY_TEXTS.count(2));
    // Another client removes the file meanwhile: this page's Delete now names an unknown image.
    await fs.rm(path.join(userFolder(server, user.username, 'ld'), 'img-001.png'));
    await seedLdImages(server, user, []);

    const tile = tiles().filter({ has: page.getByRole('img', { name: 'img-001.png' }) });
    await tile.hover();
    await tile.getByRole('button', { name: 'Delete img-001.png' }).click();
    await page.getByRole('button', { name: GALLERY_TEXTS.deleteNow }).click();
    await expect
      .poll(() => logged.some((text) => text.includes('Deleting img-001.png failed')))
      .toBe(true);
    expect(await page.getByRole('alert').count()).toBe(0);
    // The image the server kept shows again.
    await tile.waitFor();
    expect(await tile.getAttribute('aria-busy')).toBe('false');
  });

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
  const ldFiles = async (user: User) =>
    (await fs.readdir(userFolder(server, user.username, 'ld'))).sort();

  it('select all + Delete Selection can be undone: nothing is sent and every image comes back (issue 13)', async () => {
    const user = newUser();
    await seedLdImages(server, user, images(4));
    const sent = recordDeleteCommands();
    // The page's timers on a clock the test moves: the undo window passes at once.
    await page.clock.install();
    await open(user);
    await page.getByRole('button', { name: 'List' }).click();
    await page.getByRole('checkbox', { name: GALLERY_TEXTS.selectAll }).check();
    await page.getByRole('button', { name: 'Delete Selection' }).click();

    const bar = page.getByRole('status', { name: GALLERY_TEXTS.deletion });
    expect(await bar.getByText(GALLERY_TEXTS.deleted(4)).count()).toBe(1);
    await page.getByText('No se han encontrado imágenes.').waitFor();
    await bar.getByRole('button', { name: GALLERY_TEXTS.undo }).click();
    await expect.poll(() => count().textContent()).toBe(GALLERY_TEXTS.count(4));
    expect(await bar.count()).toBe(0);

    // Past the end of the (6 s) undo window nothing has gone out, and the server still has them
    // all: the reload's own list comes after any command sent.
    await page.clock.runFor(7000);
    await page.reload();
    await expect
      .poll(() => count().textContent(), { timeout: 15_000 })
      .toBe(GALLERY_TEXTS.count(4));
    expect(sent).toEqual([]);
    expect((await ldFiles(user)).length).toBe(4);
  });

  it('a deletion left alone is sent when the undo window ends; Ctrl+Z undoes the next (issue 13)', async () => {
    const user = newUser();
    await seedLdImages(server, user, images(3));
    const sent = recordDeleteCommands();
    // Time flows, but the test can move the page's timers past the second undo window at once.
    await page.clock.install();
    await open(user);
    await expect.poll(() => count().textContent()).toBe(GALLERY_TEXTS.count(3));
    const tile = (name: string) => tiles().filter({ has: page.getByRole('img', { name }) });

    await tile('img-001.png').hover();
    await tile('img-001.png').getByRole('button', { name: 'Delete img-001.png' }).click();
    await expect.poll(() => count().textContent()).toBe(GALLERY_TEXTS.count(2));
    const bar = page.getByRole('status', { name: GALLERY_TEXTS.deletion });
    expect(await bar.getByText(GALLERY_TEXTS.deleted(1)).count()).toBe(1);
    // Not sent yet: the window is still open.
    expect(sent).toEqual([]);
    expect((await ldFiles(user)).length).toBe(3);
    await expect.poll(() => sent, { timeout: 10_000 }).toEqual(['img-001.png']);
    await expect.poll(() => ldFiles(user)).toEqual(['img-002.png', 'img-003.png']);
    await bar.waitFor({ state: 'detached' });

    await tile('img-002.png').hover();
    await tile('img-002.png').getByRole('button', { name: 'Delete img-002.png' }).click();
    await expect.poll(() => count().textContent()).toBe(GALLERY_TEXTS.count(1));
    await page.mouse.move(1, 1);
    await page.keyboard.press('Control+z');
    await expect.poll(() => count().textContent()).toBe(GALLERY_TEXTS.count(2));
    await page.clock.runFor(7000);
    // The reload's own list comes after any command sent.
    await page.reload();
    await expect
      .poll(() => count().textContent(), { timeout: 15_000 })
      .toBe(GALLERY_TEXTS.count(2));
    expect(sent).toEqual(['img-001.png']);
    expect(await ldFiles(user)).toEqual(['img-002.png', 'img-003.png']);
  });

  it("[D11] a list the server cannot read shows 'Error al obtener la lista de imágenes.'", async () => {
    const user = newUser();
    await seedLdImages(server, user, images(2));
    // A real failure: the table of tag links is missing, so the server cannot answer the list.
    const db = new SQLite(path.join(server.dataDir, 'tessera.sqlite'));
    try {
      db.exec('ALTER TABLE image_tags RENAME TO image_tags_away');
      await open(user);
      await page.getByText('Error al obtener la lista de imágenes.').waitFor({ timeout: 15_000 });
      expect(await page.getByRole('alert').textContent()).toBe(
        'Error al obtener la lista de imágenes.',
      );
      expect(await tiles().count()).toBe(0);
    } finally {
      db.exec('ALTER TABLE image_tags_away RENAME TO image_tags');
      db.close();
    }
  });

  it('[D1][D4][D6] every button, link and field has an accessible name; the dialogs keep focus from the page and close with Escape', async () => {
    const user = newUser();
    await seedLdImages(server, user, images(3));
    await commandOverMqtt(server, user, 'create-tag', {
      id: 'tag-a',
      name: 'Alpha',
      color: '#123456',
    });
    await open(user);
    await tiles().first().waitFor();
    const unnamed = () =>
      page.evaluate(() =>
        Array.from(document.querySelectorAll('button, a[href], input'))
          .filter((element) => {
            const label = element.getAttribute('aria-label')?.trim();
            const labelled = element.getAttribute('aria-labelledby');
            const text = element.textContent?.trim();
            const alt = element.querySelector('img[alt]')?.getAttribute('alt')?.trim();
            const byLabel = element.id && document.querySelector(`label[for="${element.id}"]`);
            const wrapped = element.closest('label');
            const hidden = element.closest('[aria-hidden="true"]');
            return !(label || labelled || text || alt || byLabel || wrapped || hidden);
          })
          .map((element) => element.outerHTML.slice(0, 120)),
      );
    expect(await unnamed()).toEqual([]);
    await page.getByRole('button', { name: 'List' }).click();
    await page.getByRole('table').waitFor();
    expect(await unnamed()).toEqual([]);

    for (const opener of [
      TAG_TEXTS.newTag,
      GALLERY_TEXTS.assignTags('img-003.png'),
      TAG_TEXTS.deleteTag('Alpha'),
    ]) {
      await page.getByRole('button', { name: opener }).click();
      const dialog = page.getByRole('dialog');
      await dialog.waitFor();
      expect(await unnamed()).toEqual([]);
      // The page behind is inert: Tab cycles through the dialog (and the browser's own
      // controls, seen as the body), never onto the page.
      expect(await focusAfterTabs(page, dialog, 8), opener).not.toContain('page');
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
    }
  });
});
