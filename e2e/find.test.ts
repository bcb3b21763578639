import { DASHBOARD_TEXTS, GALLERY_TEXTS } from '@tessera/contract';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { browserMissing, launchBrowser } from './support/browser.js';
import { commandOverMqtt, seedManyLdImages } from './support/seed.js';
import { startServer, type RunningServer } from './support/server.js';
import { addNewUser, openPage, signIn, type User } from './support/session.js';

/**
 * Issue 13, features 8 and 9, the whole way: a person finds images among a thousand by prompt,
 * seed and days, orders them, stars some in the grid, the list and the details, filters to the
 * starred, and finds the stars again after a reload.
 */

const COUNT = 1000;
const LETTERS = 'abcdefghijklmnopqrstuvwxyz';
/** Every six hours from 2025-01-01 05:30 UTC: image 4 is 2025-01-02 00:30 in Madrid. */
const FIRST_DATE = Date.UTC(2025, 0, 1, 5, 30);
const SIX_HOURS = 6 * 3600 * 1000;
/** Only these three say "zafiro" in their prompt, one of them with an accent. */
const ZAFIRO = new Set([17, 503, 998]);

/** Names run z..a while dates rise, so by name, newest and oldest each start elsewhere. */
function nameOf(i: number): string {
  return `${LETTERS[25 - (i % 26)]}-${String(i + 1).padStart(4, '0')}.png`;
}

const IMAGES = Array.from({ length: COUNT }, (_, i) => ({
  filename: nameOf(i),
  metadata: {
    cliptextencode_585: ZAFIRO.has(i)
      ? `Azulejo de ${i === 503 ? 'Zafíro' : 'zafiro'} ${i}`
      : `${['granite floor', 'oak planks', 'rusty metal', 'brick wall'][i % 4]} ${i}`,
    kseed: 100_000 + i,
    latent_width: 1024,
    latent_height: 1024,
    created_at: new Date(FIRST_DATE + i * SIX_HOURS).toISOString(),
  },
}));

interface StarAnswer {
  filename: string;
  starred: boolean;
  success: boolean;
}

describe.skipIf(browserMissing)('Dashboard: finding and starring images among a thousand', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  let user: User;

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
    user = addNewUser(server, 'find');
    await seedManyLdImages(server, user, IMAGES);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });
  beforeEach(async () => {
    // Days are the person's days: Madrid's here, an hour off UTC in winter.
    page = await openPage(browser, server, {
      viewport: { width: 1400, height: 900 },
      timezoneId: 'Europe/Madrid',
    });
  });
  afterEach(() => page.context().close());

  const grid = () => page.getByRole('list', { name: DASHBOARD_TEXTS.images });
  const tiles = () => grid().getByRole('listitem');
  const count = () => page.getByRole('status', { name: GALLERY_TEXTS.countLabel });
  const searchBox = () => page.getByRole('searchbox', { name: DASHBOARD_TEXTS.searchPrompts });
  const starredToggle = () =>
    page.getByRole('button', { name: DASHBOARD_TEXTS.starred, exact: true });
  const tile = (name: string) => tiles().filter({ has: page.getByRole('img', { name }) });
  /** Whether a star button shows its image starred (aria-pressed), once the screen has settled. */
  const pressed = (button: Locator, expected: boolean) =>
    expect.poll(() => button.getAttribute('aria-pressed')).toBe(String(expected));

  /** The count once loading has ended, e.g. '3 imágenes'. */
  async function countReads(text: string): Promise<void> {
    await expect.poll(() => count().textContent(), { timeout: 20_000 }).toBe(text);
  }

  /** The names the grid shows, in order (all of them when they fit on the screen). */
  function gridNames(): Promise<string[]> {
    return grid()
      .getByRole('img')
      .evaluateAll((imgs) => imgs.map((img) => img.getAttribute('alt') ?? ''));
  }

  /** The names of the table's first rows, top to bottom. */
  async function firstRows(table: Locator, n: number): Promise<string[]> {
    const names = await table.locator('tbody .row-name').allTextContents();
    return names.slice(0, n);
  }

  /**
   * The server's answers to star-low-definition, from the page's own socket: a reload right after
   * a click must not cut the command off, so the test waits for the server as a person would.
   */
  function starAnswers(): StarAnswer[] {
    const answers: StarAnswer[] = [];
    page.on('websocket', (socket) => {
      socket.on('framereceived', ({ payload }) => {
        // The broker may send a packet's topic and its JSON in frames of their own: read JSON.
        const text = typeof payload === 'string' ? payload : payload.toString('utf8');
        if (!text.startsWith('{')) return;
        try {
          const body = JSON.parse(text) as Partial<StarAnswer> & { images?: unknown };
          if (typeof body.filename === 'string' && typeof body.starred === 'boolean')
            answers.push({
              filename: body.filename,
              starred: body.starred,
              success: !!body.success,
            });
        } catch {
          // Part of a larger message: not an answer to a star.
        }
      });
    });
    return answers;
  }
  const answered = (answers: StarAnswer[], filename: string, starred: boolean) =>
    expect
      .poll(
        () => answers.some((a) => a.filename === filename && a.starred === starred && a.success),
        { message: `star answers: ${JSON.stringify(answers)}` },
      )
      .toBe(true);

  async function open(): Promise<void> {
    await signIn(page, user.username, user.password);
    await countReads(GALLERY_TEXTS.count(COUNT));
  }

  it('finds by prompt, seed and days, and orders newest, oldest or by name', async () => {
    await open();

    // Part of the prompt, any case, with or without the accent: the three "zafiro" images only.
    await searchBox().fill('ZAFIRO');
    await countReads(GALLERY_TEXTS.count(3));
    expect(await gridNames()).toEqual([nameOf(998), nameOf(503), nameOf(17)]);
    await searchBox().fill('');
    await countReads(GALLERY_TEXTS.count(COUNT));

    // A seed, typed as a person types it (letters do not go in).
    const seed = page.getByRole('textbox', { name: DASHBOARD_TEXTS.seed });
    await seed.pressSequentially('1x00500');
    expect(await seed.inputValue()).toBe('100500');
    await countReads(GALLERY_TEXTS.count(1));
    expect(await gridNames()).toEqual([nameOf(500)]);
    await page.getByRole('button', { name: DASHBOARD_TEXTS.clearSearch }).click();
    expect(await seed.inputValue()).toBe('');
    await countReads(GALLERY_TEXTS.count(COUNT));

    // One day, Madrid's 2 January: from 00:30 (still 1 January in UTC) to 18:30.
    await page.getByLabel(DASHBOARD_TEXTS.from, { exact: true }).fill('2025-01-02');
    await page.getByLabel(DASHBOARD_TEXTS.to, { exact: true }).fill('2025-01-02');
    await countReads(GALLERY_TEXTS.count(4));
    expect(await gridNames()).toEqual([nameOf(6), nameOf(5), nameOf(4), nameOf(3)]);
    await page.getByRole('button', { name: DASHBOARD_TEXTS.clearSearch }).click();
    await countReads(GALLERY_TEXTS.count(COUNT));

    // The order, in the list: newest first by default, then oldest, then by name.
    await page.getByRole('button', { name: 'List' }).click();
    const table = page.getByRole('table');
    await table.waitFor();
    expect(await firstRows(table, 3)).toEqual([nameOf(999), nameOf(998), nameOf(997)]);
    const sort = page.getByLabel(DASHBOARD_TEXTS.sort, { exact: true });
    await sort.selectOption({ label: DASHBOARD_TEXTS.sorts.oldest });
    await expect.poll(() => firstRows(table, 3)).toEqual([nameOf(0), nameOf(1), nameOf(2)]);
    await sort.selectOption({ label: DASHBOARD_TEXTS.sorts.name });
    // a-0026, a-0052, a-0078...: every 26th image starts with "a".
    await expect.poll(() => firstRows(table, 3)).toEqual([nameOf(25), nameOf(51), nameOf(77)]);
    await countReads(GALLERY_TEXTS.count(COUNT));

    // Search and order together.
    await searchBox().fill('zafiro');
    await countReads(GALLERY_TEXTS.count(3));
    expect(await firstRows(table, 3)).toEqual([nameOf(17), nameOf(998), nameOf(503)]);
  });

  it('stars in the grid, the list and the details, filters to the starred, and keeps them', async () => {
    const answers = starAnswers();
    await open();

    // In the grid: the star shows on the tile's bar and over its picture.
    const first = tile(nameOf(999));
    await first.hover();
    const gridStar = first.getByRole('button', { name: GALLERY_TEXTS.star(nameOf(999)) });
    await pressed(gridStar, false);
    await gridStar.click();
    await pressed(gridStar, true);
    await first.locator('.tile-star').waitFor();

    // In the details of another image.
    await page.getByRole('button', { name: nameOf(997), exact: true }).click();
    const details = page.getByRole('dialog');
    await details.waitFor();
    const detailsStar = details.getByRole('button', { name: GALLERY_TEXTS.star(nameOf(997)) });
    await detailsStar.click();
    await pressed(detailsStar, true);
    await page.keyboard.press('Escape');
    await details.waitFor({ state: 'detached' });
    await pressed(
      tile(nameOf(997)).getByRole('button', { name: GALLERY_TEXTS.star(nameOf(997)) }),
      true,
    );

    // In the list, an image found by search far down the thousand.
    await page.getByRole('button', { name: 'List' }).click();
    await searchBox().fill('zafiro');
    await countReads(GALLERY_TEXTS.count(3));
    const row = page.getByRole('row').filter({ hasText: nameOf(17) });
    const rowStar = row.getByRole('button', { name: GALLERY_TEXTS.star(nameOf(17)) });
    await rowStar.click();
    await pressed(rowStar, true);
    await searchBox().fill('');
    await countReads(GALLERY_TEXTS.count(COUNT));

    // Starred only: the three, newest first.
    await starredToggle().click();
    await pressed(starredToggle(), true);
    await countReads(GALLERY_TEXTS.count(3));
    const table = page.getByRole('table');
    expect(await table.locator('tbody .row-name').allTextContents()).toEqual([
      nameOf(999),
      nameOf(997),
      nameOf(17),
    ]);

    // A reload keeps the stars: the server has them.
    for (const name of [nameOf(999), nameOf(997), nameOf(17)]) await answered(answers, name, true);
    await page.reload();
    await countReads(GALLERY_TEXTS.count(COUNT));
    await page.getByRole('button', { name: 'Gallery' }).click();
    await starredToggle().click();
    await countReads(GALLERY_TEXTS.count(3));
    expect(await gridNames()).toEqual([nameOf(999), nameOf(997), nameOf(17)]);
    for (const name of [nameOf(999), nameOf(997), nameOf(17)])
      await pressed(tile(name).getByRole('button', { name: GALLERY_TEXTS.star(name) }), true);

    // Unstarred in the Starred view, it leaves it; and stays unstarred after a reload.
    await tile(nameOf(997)).hover();
    await tile(nameOf(997))
      .getByRole('button', { name: GALLERY_TEXTS.star(nameOf(997)) })
      .click();
    await countReads(GALLERY_TEXTS.count(2));
    expect(await gridNames()).toEqual([nameOf(999), nameOf(17)]);
    await answered(answers, nameOf(997), false);
    await page.reload();
    await countReads(GALLERY_TEXTS.count(COUNT));
    await starredToggle().click();
    await countReads(GALLERY_TEXTS.count(2));
    expect(await gridNames()).toEqual([nameOf(999), nameOf(17)]);
  });

  it('a star the server refuses goes back, and is logged only', async () => {
    const other = addNewUser(server, 'find');
    await seedManyLdImages(server, other, IMAGES.slice(0, 2));
    const logged: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') logged.push(message.text());
    });
    await signIn(page, other.username, other.password);
    await countReads(GALLERY_TEXTS.count(2));
    // Another client of theirs deletes the image meanwhile: this page's star names no image.
    await commandOverMqtt(server, other, 'delete-low-definition', { filename: nameOf(1) });

    await tile(nameOf(1)).hover();
    const star = tile(nameOf(1)).getByRole('button', { name: GALLERY_TEXTS.star(nameOf(1)) });
    await star.click();
    await expect
      .poll(() => logged.some((text) => text.includes(`Starring ${nameOf(1)} failed`)))
      .toBe(true);
    await pressed(star, false);
    expect(await page.getByRole('alert').count()).toBe(0);
  });
  it('a new search or order after scrolling shows the results from the top, in the grid and the list (issue 22, part 11)', async () => {
    await open();
    const topOf = async (element: Locator) => (await element.boundingBox())?.y;
    const gridTop = await topOf(grid());
    /** Scrolls far down the images, as a person does with the wheel, until the first has gone. */
    async function scrollAway(over: Locator, first: Locator) {
      await over.hover();
      await page.mouse.wheel(0, 30_000);
      await expect.poll(() => first.count()).toBe(0);
    }

    await scrollAway(tiles().first(), tile(nameOf(999)));
    await page
      .getByLabel(DASHBOARD_TEXTS.sort, { exact: true })
      .selectOption({ label: DASHBOARD_TEXTS.sorts.oldest });
    await expect.poll(() => tile(nameOf(0)).count()).toBe(1);
    await expect.poll(() => topOf(grid())).toBe(gridTop);

    await scrollAway(tiles().first(), tile(nameOf(0)));
    await searchBox().fill('brick wall');
    await countReads(GALLERY_TEXTS.count(249));
    await expect.poll(() => tile(nameOf(3)).count()).toBe(1);
    await expect.poll(() => topOf(grid())).toBe(gridTop);

    await page.getByRole('button', { name: 'List' }).click();
    const table = page.getByRole('table');
    await table.waitFor();
    const tableTop = await topOf(table);
    const row = (name: string) => table.getByRole('row').filter({ hasText: name });
    await scrollAway(table, row(nameOf(3)));
    await page
      .getByLabel(DASHBOARD_TEXTS.sort, { exact: true })
      .selectOption({ label: DASHBOARD_TEXTS.sorts.name });
    // a-0052 is the first brick wall by name.
    await expect.poll(() => firstRows(table, 1)).toEqual([nameOf(51)]);
    await expect.poll(() => topOf(table)).toBe(tableTop);
  });
});
