// The Dashboard in Chromium with 50,000 LD images of one user, and with 1,000 (issues 6 and 28):
// time from navigation to the first thumbnails painted and to the whole list loaded, and the DOM
// size, which must not grow with the number of images. Needs the built web app (npm run build).
// Run: node --import tsx dashboard-browser.ts
import { performance } from 'node:perf_hooks';
import { GALLERY_TEXTS, IMAGE_PAGE_SIZE } from '@tessera/contract';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { BROKER_PATH } from '../server/src/broker/embedded.js';
import { thumbnailName } from '../server/src/services/images.js';
import { passwordOf } from '../server/src/testing/fixtures.js';
import {
  startTestServer,
  UNLIMITED_PUBLISHING,
  type TestServer,
} from '../server/src/testing/test-server.js';
import { browserMissing, launchBrowser } from '../e2e/support/browser.js';
import { signIn } from '../e2e/support/session.js';
import { BenchClient } from './client.js';
import { printHeadline } from './headline.js';
import { FORMATS, seedLdImages, TAGS } from './ld-seed.js';
import { machineLine } from './machine.js';
import { median, ms, ratio, verdict } from './stats.js';

const SIZES = [50_000, 1_000] as const;
const RUNS = 5;
const FIRST_GOAL_MS = 1000;
const FULL_GOAL_MS = 3000;
/** DOM sizes within this share of each other count as independent of the image count. */
const DOM_TOLERANCE = 0.1;
/** Images indexed through the server's own refresh, to show what that way of seeding costs. */
const REFRESH_SAMPLE = 200;

function userFor(count: number): string {
  return `bench-dash-${count}`;
}

/** A handful of real WebP thumbnails (textures with structure), shared by all rows. */
async function makeThumbnails(): Promise<Buffer[]> {
  const thumbnails: Buffer[] = [];
  for (const [i, format] of FORMATS.entries()) {
    const width = 256;
    const height = Math.round((256 * format.latent_height) / format.latent_width);
    const data = Buffer.alloc(width * height * 3);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const grain = ((x * 7919 + y * 104729 + i * 31) % 41) - 20;
        const band = Math.floor((x + y) / 24) % 2 === 0 ? 18 : 0;
        const p = (y * width + x) * 3;
        data[p] = 110 + i * 30 + grain + band;
        data[p + 1] = 90 + i * 12 + grain;
        data[p + 2] = 70 + grain + band;
      }
    }
    thumbnails.push(
      await sharp(data, { raw: { width, height, channels: 3 } })
        .webp({ quality: 80 })
        .toBuffer(),
    );
  }
  return thumbnails;
}

/**
 * `count` LD rows (ld-seed.ts) and a WebP thumbnail file for each: what refresh-low-definition would leave, at
 * a fraction of the cost (the originals are not written: the gallery only loads thumbnails).
 */
async function seed(server: TestServer, count: number, thumbnails: Buffer[]): Promise<void> {
  const username = userFor(count);
  const { rows } = await seedLdImages(server, username, count);
  // Sixteen writes at a time: the disk stays busy without thousands of open files.
  for (let at = 0; at < rows.length; at += 16) {
    await Promise.all(
      rows
        .slice(at, at + 16)
        .map(({ filename, format }) =>
          server.files.write(
            username,
            'ld-thumbnails',
            thumbnailName(filename),
            thumbnails[format] as Buffer,
          ),
        ),
    );
  }
}

/** What seeding through the server's own refresh would cost: a sample, timed, extrapolated. */
async function refreshSample(server: TestServer): Promise<number> {
  const username = 'bench-dash-refresh';
  for (let i = 0; i < REFRESH_SAMPLE; i++) {
    await server.placeImage(username, 'ld', `sample_${i}.png`, { latent_width: 1024 });
  }
  const client = await BenchClient.connect(
    `ws://127.0.0.1:${server.server.port}${BROKER_PATH}`,
    username,
    passwordOf(username),
    '127.0.0.3',
  );
  try {
    const start = performance.now();
    const answer = await client.request('refresh-low-definition');
    if (answer.success !== true) throw new Error('refresh failed');
    return performance.now() - start;
  } finally {
    await client.close();
  }
}

/** The browser's paging over MQTT, from Node: the floor under the page's "full list" time. */
async function mqttPaging(server: TestServer, count: number): Promise<number> {
  const username = userFor(count);
  const client = await BenchClient.connect(
    `ws://127.0.0.1:${server.server.port}${BROKER_PATH}`,
    username,
    passwordOf(username),
    '127.0.0.4',
  );
  try {
    const samples: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      samples.push((await client.pageThroughLd()).ms);
    }
    return median(samples);
  } finally {
    await client.close();
  }
}

/** Records Element Timing entries of the thumbnails from the very start of each page load. */
const RECORD_PAINTS = `
  window.__thumbnailPaints = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      window.__thumbnailPaints.push({
        time: entry.renderTime || entry.loadTime,
        url: entry.url,
      });
    }
  }).observe({ type: 'element', buffered: true });
`;

interface Run {
  firstThumbnail: number;
  firstScreen: number;
  fullList: number;
  thumbnailsInView: number;
  domNodes: number;
  domNodesScrolled: number;
}

// Code that runs in the page is kept as text (this package is typed for Node, not the DOM):
// each is an expression that calls its function, as page.evaluate and waitForFunction expect.

/**
 * performance.now() once the count reads the whole list's ("50.000 imágenes": the app's default
 * language, the contract's text), else false.
 */
const LIST_COMPLETE = (text: string) => `(() => {
  const status = document.querySelector(${JSON.stringify(`[aria-label="${GALLERY_TEXTS.countLabel}"]`)});
  return status && status.textContent === ${JSON.stringify(text)} ? performance.now() : false;
})()`;

/**
 * The first screen: every thumbnail the gallery's scroll box shows, once each has painted. Gives
 * the first paint of any thumbnail, the last of that screen, and how many there are; else false.
 */
const FIRST_SCREEN_PAINTED = `(() => {
  const scroller = document.querySelector('.gallery-scroll');
  if (!scroller) return false;
  const box = scroller.getBoundingClientRect();
  const inView = Array.from(scroller.querySelectorAll('img')).filter((img) => {
    const r = img.getBoundingClientRect();
    return r.bottom > box.top && r.top < box.bottom && r.right > box.left && r.left < box.right;
  });
  const recorded = window.__thumbnailPaints;
  const times = inView.map((img) => {
    const paint = recorded.find((p) => p.url === img.currentSrc);
    return paint ? paint.time : undefined;
  });
  if (inView.length === 0 || times.some((time) => time === undefined)) return false;
  return {
    first: Math.min(...recorded.map((p) => p.time)),
    screen: Math.max(...times),
    inView: inView.length,
  };
})()`;

const DOM_ELEMENTS = `document.getElementsByTagName('*').length`;

/** Scrolls the gallery half way down and waits two frames for the virtualiser to follow. */
const SCROLL_HALF_WAY = `(async () => {
  const scroller = document.querySelector('.gallery-scroll');
  if (scroller) scroller.scrollTop = scroller.scrollHeight / 2;
  await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
})()`;

interface Painted {
  first: number;
  screen: number;
  inView: number;
}

/** One cold navigation to /dashboard (browser cache off), measured in the page's own clock. */
async function measure(page: Page, count: number): Promise<Run> {
  await page.goto('/dashboard');
  const full = await page.waitForFunction(LIST_COMPLETE(GALLERY_TEXTS.count(count)), undefined, {
    polling: 'raf',
    timeout: 60_000,
  });
  const fullList = (await full.jsonValue()) as number;
  const paints = await page.waitForFunction(FIRST_SCREEN_PAINTED, undefined, {
    polling: 100,
    timeout: 60_000,
  });
  const painted = (await paints.jsonValue()) as Painted;
  const domNodes = (await page.evaluate(DOM_ELEMENTS)) as number;
  // Half way down the list: other tiles, but as many of them.
  await page.evaluate(SCROLL_HALF_WAY);
  const domNodesScrolled = (await page.evaluate(DOM_ELEMENTS)) as number;
  return {
    firstThumbnail: painted.first,
    firstScreen: painted.screen,
    fullList,
    thumbnailsInView: painted.inView,
    domNodes,
    domNodesScrolled,
  };
}

interface Figures {
  count: number;
  firstThumbnail: number;
  firstScreen: number;
  fullList: number;
  domNodes: number;
  domNodesScrolled: number;
  thumbnailsInView: number;
  paging: number;
  runs: number;
}

async function main(): Promise<void> {
  console.log(machineLine());
  if (browserMissing) {
    console.log('Dashboard in the browser: SKIPPED (no /usr/bin/chromium)');
    return;
  }
  const server = await startTestServer(
    [...SIZES.map(userFor), 'bench-dash-refresh'],
    'embedded',
    {},
    UNLIMITED_PUBLISHING,
  );
  const browser = await launchBrowser();
  try {
    const thumbnails = await makeThumbnails();
    for (const count of SIZES) {
      const seeding = performance.now();
      await seed(server, count, thumbnails);
      console.log(
        `Dashboard seeding: ${count.toLocaleString('en')} LD rows (16 metadata fields, ${TAGS} ` +
          `tags on ~40%) and as many WebP thumbnails in ${ms(performance.now() - seeding)}`,
      );
    }
    const sample = await refreshSample(server);
    console.log(
      `  (through refresh-low-definition instead: ${REFRESH_SAMPLE} PNG files indexed in ` +
        `${ms(sample)}, about ${ms((sample / REFRESH_SAMPLE) * SIZES[0])} for ` +
        `${SIZES[0].toLocaleString('en')}; hence the direct rows)`,
    );

    const figures: Figures[] = [];
    for (const count of SIZES) {
      const context = await browser.newContext({
        baseURL: `http://127.0.0.1:${server.server.port}`,
        viewport: { width: 1440, height: 900 },
        // Playwright's waitForFunction evaluates its predicate with eval, which the app's CSP
        // (rightly) forbids; the measures read the page, they do not change what it runs.
        bypassCSP: true,
      });
      try {
        const page = await context.newPage();
        await page.addInitScript(RECORD_PAINTS);
        await signIn(page, userFor(count), passwordOf(userFor(count)));
        // Every run loads the app, the list and the thumbnails from the server, as a first visit.
        const cdp = await context.newCDPSession(page);
        await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
        await measure(page, count); // warm-up: the server's caches, Chromium's compile cache
        const runs: Run[] = [];
        for (let run = 0; run < RUNS; run++) runs.push(await measure(page, count));
        const pick = (key: keyof Run) => median(runs.map((r) => r[key]));
        figures.push({
          count,
          firstThumbnail: pick('firstThumbnail'),
          firstScreen: pick('firstScreen'),
          fullList: pick('fullList'),
          domNodes: pick('domNodes'),
          domNodesScrolled: pick('domNodesScrolled'),
          thumbnailsInView: pick('thumbnailsInView'),
          paging: await mqttPaging(server, count),
          runs: runs.length,
        });
      } finally {
        await context.close();
      }
    }

    console.log(
      `Dashboard in Chromium (headless, 1440x900, cache off), from navigation to /dashboard; ` +
        `median of ${RUNS} runs after a warm-up`,
    );
    const line = (label: string, value: string, rest: string) =>
      console.log(`${label.padEnd(56)}: ${value.padStart(9)} | ${rest}`);
    for (const f of figures) {
      const n = f.count.toLocaleString('en');
      line(
        `${n} images: first thumbnail painted`,
        ms(f.firstThumbnail),
        `goal < ${FIRST_GOAL_MS / 1000} s: ${verdict(f.firstThumbnail < FIRST_GOAL_MS)}`,
      );
      line(
        `${n} images: first screen painted (${f.thumbnailsInView} thumbnails)`,
        ms(f.firstScreen),
        `goal < ${FIRST_GOAL_MS / 1000} s: ${verdict(f.firstScreen < FIRST_GOAL_MS)}`,
      );
      line(
        `${n} images: full list loaded (${Math.floor(f.count / IMAGE_PAGE_SIZE) + 1} pages)`,
        ms(f.fullList),
        `goal < ${FULL_GOAL_MS / 1000} s: ${verdict(f.fullList < FULL_GOAL_MS)} | ` +
          `ratio to the same paging from Node (${ms(f.paging)}) ${ratio(f.fullList / f.paging)}`,
      );
      line(
        `${n} images: DOM elements (top / half way down)`,
        `${f.domNodes} / ${f.domNodesScrolled}`,
        `${(f.domNodes / f.count).toFixed(3)} per image`,
      );
    }
    const [big, small] = figures as [Figures, Figures];
    const domRatio = big.domNodes / small.domNodes;
    line(
      `DOM elements, ${big.count.toLocaleString('en')} / ${small.count.toLocaleString('en')} images`,
      ratio(domRatio),
      `${ratio(big.count / small.count)} the images | independent of the count: ` +
        verdict(Math.abs(domRatio - 1) <= DOM_TOLERANCE),
    );
    const n = big.count.toLocaleString('en');
    printHeadline({
      figure: `Dashboard, ${n} images: first screen painted`,
      value: ms(big.firstScreen),
      goal: `< ${FIRST_GOAL_MS / 1000} s`,
      met: big.firstScreen < FIRST_GOAL_MS,
    });
    printHeadline({
      figure: `Dashboard DOM elements, ${n} / ${small.count.toLocaleString('en')} images`,
      value: ratio(domRatio),
      goal: `within ${DOM_TOLERANCE * 100} % of 1×`,
      met: Math.abs(domRatio - 1) <= DOM_TOLERANCE,
    });
  } finally {
    await browser.close();
    await server.stop();
  }
}

await main();
