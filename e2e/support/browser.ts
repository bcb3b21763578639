import fs from 'node:fs';
import { chromium, type Browser, type BrowserContextOptions } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

/**
 * Debian's Chromium is the browser of these tests (no browser download works here). Without it
 * the suite is skipped with a notice, except in CI, where a missing browser fails the run.
 */
export const browserMissing = !fs.existsSync(CHROMIUM);
if (browserMissing) {
  if (process.env.CI === 'true')
    throw new Error(`${CHROMIUM} is missing: CI requires the browser suite`);
  console.warn(
    `\n*** Browser tests SKIPPED: ${CHROMIUM} not found (apt-get install chromium) ***\n`,
  );
}

/**
 * The locale of every context a test opens without one: the app speaks the browser's language
 * (issue 30, part 5) and the spec's texts are its default language's, Spanish. Headless Chromium
 * otherwise reports en-US whatever its --lang; a test for English passes `locale: 'en-GB'`.
 */
export const BROWSER_LOCALE = 'es-ES';

/** Debian's Chromium, whose new contexts and pages default to BROWSER_LOCALE. */
export async function launchBrowser(): Promise<Browser> {
  const browser = await launchChromium();
  const newContext = browser.newContext.bind(browser);
  const newPage = browser.newPage.bind(browser);
  browser.newContext = (options: BrowserContextOptions = {}) =>
    newContext({ locale: BROWSER_LOCALE, ...options });
  browser.newPage = (options: BrowserContextOptions = {}) =>
    newPage({ locale: BROWSER_LOCALE, ...options });
  return browser;
}

function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
