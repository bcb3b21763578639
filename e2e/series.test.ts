import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  DASHBOARD_TEXTS,
  GALLERY_TEXTS,
  GENERATE_TEXTS,
  OUTPUT_TEXTS,
  readSeriesFace,
  seriesMetadata,
  TEXTS,
} from '@tessera/contract';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { browserMissing, launchBrowser } from './support/browser.js';
import { grainyPhoto } from './support/reference.js';
import { openScreen } from './support/screen.js';
import { commandOverMqtt, seedLdImages } from './support/seed.js';
import { startServer, type RunningServer } from './support/server.js';
import { addNewUser, collectAlerts, openPage, signIn, type User } from './support/session.js';

/**
 * Tile series (issue 25, parts 1, 4 and 6) clicked through as a person does, against the real
 * server and its builtin engine: Faces 4 makes four faces of one series, which the Dashboard
 * shows with their badges and selects with Select series; a series orders HD for every face.
 */

/** Any face's badge in a series of `faces` (a regex source): TEXTS.seriesFaceBadge's words. */
function faceBadges(faces: string): RegExp {
  return new RegExp(`^${TEXTS.seriesFaceBadge(0, 0).replace('0/0', `\\d+/${faces}`)}$`);
}

interface ListedImage {
  filename: string;
  metadata: Record<string, unknown>;
}

/** A series of four faces at Square on a loaded two-core machine: minutes, not seconds. */
const SERIES_TIMEOUT_MS = 240_000;

describe.skipIf(browserMissing)('Tile series in the browser', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  let folder: string;
  let user: User;
  let alerts: string[];

  beforeAll(async () => {
    server = await startServer({ BUILTIN_UPSCALER: 'lanczos', JOB_CONCURRENCY: '1' });
    browser = await launchBrowser();
    folder = await fs.mkdtemp(path.join(os.tmpdir(), 'tessera-series-'));
    await fs.writeFile(
      path.join(folder, 'terrazzo.png'),
      await grainyPhoto({
        width: 160,
        height: 120,
        base: [200, 196, 188],
        grain: 70,
        format: 'png',
      }),
    );
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    if (folder) await fs.rm(folder, { recursive: true, force: true });
  });
  beforeEach(async () => {
    // Each test its own user, so its gallery holds only what the test made.
    user = addNewUser(server, 'series');
    page = await openPage(browser, server, { viewport: { width: 1280, height: 900 } });
    alerts = collectAlerts(page);
    await signIn(page, user.username, user.password);
  });
  afterEach(() => page.context().close());

  const images = () => page.getByRole('list', { name: DASHBOARD_TEXTS.images });
  const results = () => page.getByRole('list', { name: GENERATE_TEXTS.results });
  const generateButton = () => page.getByRole('button', { name: /^Generat/ });
  const imageCount = (text: string) =>
    page.getByRole('status', { name: GALLERY_TEXTS.countLabel }).getByText(text).waitFor();

  async function listedImages(): Promise<ListedImage[]> {
    const answer = await commandOverMqtt(server, user, 'list-low-definition', {
      page: 1,
      size: 100,
    });
    return answer.images as ListedImage[];
  }

  /** The badges of the Dashboard's tiles, as they read. */
  const tileBadges = () => images().getByText(faceBadges('\\d+')).allTextContents();

  /** Points at a tile, as a person does to see its actions, and clicks its Select series. */
  async function selectSeriesFrom(filename: string): Promise<void> {
    const tile = images()
      .getByRole('listitem')
      .filter({ has: page.getByRole('img', { name: filename }) });
    await tile.hover();
    await tile.getByRole('button', { name: GALLERY_TEXTS.selectSeriesOf(filename) }).click();
  }

  it(
    'Faces 4 makes four faces of one series: in the footer, in the Dashboard with their badges, and Select series selects the four',
    async () => {
      await openScreen(page, 'Generate');
      const chooser = page.waitForEvent('filechooser');
      await page.getByRole('button', { name: /imagen de referencia/ }).click();
      await (await chooser).setFiles(path.join(folder, 'terrazzo.png'));
      await page
        .getByRole('button', { name: GENERATE_TEXTS.changeReference('terrazzo.png') })
        .waitFor();
      await page.getByLabel('Positive Prompt').fill('terrazzo floor, white and grey chips');
      await page.getByLabel('Negative Prompt').fill('blurry, text');
      await page.getByRole('switch', { name: 'Seamless' }).check();
      await page.getByLabel(GENERATE_TEXTS.labels.faces, { exact: true }).fill('4');

      await generateButton().click();
      // One placeholder per face, each saying which.
      await expect
        .poll(() => page.getByRole('img', { name: /^Cara \d de 4 pendiente$/ }).count())
        .toBe(4);

      await expect
        .poll(
          () =>
            results()
              .getByRole('button', { name: new RegExp(`^${GENERATE_TEXTS.load('')}`) })
              .count(),
          {
            timeout: SERIES_TIMEOUT_MS,
          },
        )
        .toBe(4);
      await expect.poll(() => generateButton().textContent()).toBe('Generate');
      expect(alerts).toEqual([]);
      expect(await page.getByRole('alert').count()).toBe(0);
      expect(await results().getByText(faceBadges('4')).allTextContents()).toEqual(
        [1, 2, 3, 4].map((face) => TEXTS.seriesFaceBadge(face, 4)),
      );

      // The server lists four faces of one series, faces 1 to 4.
      const listed = await listedImages();
      const faces = listed.map((image) => readSeriesFace(image.metadata));
      expect(listed).toHaveLength(4);
      expect(new Set(faces.map((face) => face?.seriesId)).size).toBe(1);
      expect(faces.map((face) => face?.face).sort()).toEqual([1, 2, 3, 4]);
      expect(faces.every((face) => face?.faces === 4)).toBe(true);

      await openScreen(page, 'Dashboard');
      await imageCount(GALLERY_TEXTS.count(4));
      await expect
        .poll(() => tileBadges().then((badges) => [...badges].sort()))
        .toEqual([1, 2, 3, 4].map((face) => TEXTS.seriesFaceBadge(face, 4)));

      const third = listed.find((image) => readSeriesFace(image.metadata)?.face === 3);
      await selectSeriesFrom(third?.filename ?? 'face 3');
      await page.getByText(GALLERY_TEXTS.selectedCount(4)).waitFor();
      for (const image of listed) {
        const box = images().getByRole('checkbox', { name: GALLERY_TEXTS.select(image.filename) });
        expect(await box.isChecked()).toBe(true);
      }
    },
    SERIES_TIMEOUT_MS + 60_000,
  );

  it('a series keeps its faces together in the list, Select series picks them, and HD for the series orders every face', async () => {
    const seriesId = 'slate-9f3a';
    // At their latent size: the HD job takes the picture's own pixels.
    const face = (n: number) => ({
      filename: `${seriesId}-f${n}.png`,
      width: 1024,
      height: 1024,
      metadata: {
        cliptextencode_585: 'slate floor',
        kseed: 100 + n,
        latent_width: 1024,
        latent_height: 1024,
        ...seriesMetadata({ seriesId, face: n, faces: 3 }),
      },
    });
    // Newest first, a single image falls between face 1 and faces 2 and 3.
    const at = (minutes: number) => new Date(Date.UTC(2026, 0, 5, 10, minutes));
    await seedLdImages(server, user, [
      { ...face(1), modifiedAt: at(40), color: '#5d6770' },
      { filename: 'single-oak.png', modifiedAt: at(30), color: '#8a6f4e' },
      { ...face(2), modifiedAt: at(20), color: '#56606a' },
      { ...face(3), modifiedAt: at(10), color: '#646e78' },
    ]);
    await page.reload();
    await imageCount(GALLERY_TEXTS.count(4));

    await page.getByRole('button', { name: 'List' }).click();
    const rowNames = () =>
      page
        .getByRole('table')
        .getByRole('button', { name: /^\S+\.png$/ })
        .allTextContents();
    await expect
      .poll(rowNames)
      .toEqual([face(1).filename, face(2).filename, face(3).filename, 'single-oak.png']);

    // In the list, a face's badge is its Select series.
    await page
      .getByRole('button', { name: GALLERY_TEXTS.selectSeriesOf(face(2).filename) })
      .click();
    await page.getByText(GALLERY_TEXTS.selectedCount(3)).waitFor();
    expect(
      await page
        .getByRole('checkbox', { name: GALLERY_TEXTS.select('single-oak.png') })
        .isChecked(),
    ).toBe(false);
    await page.getByRole('button', { name: GALLERY_TEXTS.clearSelection }).click();

    // HD for the series, from face 2's details: one order per face, at the size chosen.
    await page.getByRole('button', { name: face(2).filename, exact: true }).click();
    const dialog = page.getByRole('dialog', { name: face(2).filename });
    await dialog.waitFor();
    await dialog.getByText(TEXTS.seriesFaceBadge(2, 3)).waitFor();
    await dialog.getByLabel('Output Size').selectOption('30x30');
    await dialog.getByRole('button', { name: TEXTS.generateHdForSeries(3) }).click();
    await dialog.waitFor({ state: 'detached' });
    // The sidebar counts the orders from the click on, as it counts single orders, until the
    // server has told each one finished.
    await page
      .getByRole('status', { name: OUTPUT_TEXTS.jobsBadge })
      .waitFor({ state: 'detached', timeout: 150_000 });

    await openScreen(page, 'Output');
    await imageCount(GALLERY_TEXTS.count(3));
    for (let n = 1; n <= 3; n++) {
      await page
        .getByRole('img', { name: new RegExp(`^${seriesId}-f${n}\\D`) })
        .first()
        .waitFor();
    }
  }, 240_000);
});
