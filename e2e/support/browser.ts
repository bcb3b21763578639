import fs from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

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

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    // A Spanish browser unless a test's context says otherwise (locale: 'en-GB'): the app
    // speaks the language of the browser (issue 30), and the spec's texts are its default's.
    env: { ...process.env, LANGUAGE: 'es_ES', LANG: 'es_ES.UTF-8' },
    args: [
      '--lang=es-ES',
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
