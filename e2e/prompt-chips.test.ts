import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  DIALOG_TEXTS,
  GENERATE_TEXTS,
  IMAGE_DETAILS_TEXTS,
  PROMPT_CHIP_TEXTS,
  promptColour,
  SYNTHESIS_TEXTS,
} from '@tessera/contract';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserMissing, launchBrowser } from './support/browser.js';
import { grainyPhoto } from './support/reference.js';
import { startServer, type RunningServer } from './support/server.js';
import { addNewUser, collectAlerts, openPage, signIn, type User } from './support/session.js';

/** A colour of the vocabulary as the browser computes a background: "rgb(194, 100, 60)". */
function cssColour(id: string): string {
  const hex = promptColour(id)?.hex ?? '';
  const channels = [1, 3, 5].map((at) => parseInt(hex.slice(at, at + 2), 16));
  return `rgb(${channels.join(', ')})`;
}

/**
 * Issue 27 in the browser, on the real server and its builtin engine: the words of a prompt the
 * engine understands show as chips while the person types, with a line naming the words left to
 * the AI engine; the image made lists them in its details; and "Use these settings" brings the
 * same prompt, chips and synthesis mode back.
 */

const PROMPT = 'piezas grandes terracota pulido, mossy wall';
/** The chips of PROMPT as the list reads them (a scale's and a finish's with their kind). */
const CHIPS = [
  `${PROMPT_CHIP_TEXTS.kinds.scale}piezas grandes`,
  'terracota',
  `${PROMPT_CHIP_TEXTS.kinds.finish}pulido`,
];
const OTHER_WORDS = PROMPT_CHIP_TEXTS.otherWords('mossy, wall');

describe.skipIf(browserMissing)('prompt chips (issue 27)', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  let user: User;
  let folder: string;

  beforeAll(async () => {
    server = await startServer({ BUILTIN_UPSCALER: 'lanczos' });
    user = addNewUser(server, 'chips');
    folder = await fs.mkdtemp(path.join(os.tmpdir(), 'tessera-chips-'));
    await fs.writeFile(
      path.join(folder, 'clay.png'),
      await grainyPhoto({ width: 128, height: 128, base: [150, 90, 60], grain: 50, format: 'png' }),
    );
    browser = await launchBrowser();
    page = await openPage(browser, server);
  });
  afterAll(async () => {
    await page?.context().close();
    await browser?.close();
    await server?.stop();
    if (folder) await fs.rm(folder, { recursive: true, force: true });
  });

  const chipsOf = (where: Page | Locator, name: string) =>
    where.getByRole('list', { name }).getByRole('listitem').allTextContents();
  const generateButton = () => page.getByRole('button', { name: /^Generat/ });

  it('shows the understood words as they are typed, records them with the image, and Remix brings them back', async () => {
    const alerts = collectAlerts(page);
    await signIn(page, user.username, user.password);
    await page.goto(new URL('/generate', server.url).toString());
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: /imagen de referencia/ }).click();
    await (await chooser).setFiles(path.join(folder, 'clay.png'));
    await page.getByRole('button', { name: GENERATE_TEXTS.changeReference('clay.png') }).waitFor();

    // Typed key by key, as a person would: the chips follow the words.
    const positive = page.getByLabel('Positive Prompt');
    await positive.pressSequentially('piezas grandes terracota');
    await expect.poll(() => chipsOf(page, PROMPT_CHIP_TEXTS.understood)).toEqual(CHIPS.slice(0, 2));
    await positive.pressSequentially(PROMPT.slice('piezas grandes terracota'.length));
    await expect.poll(() => chipsOf(page, PROMPT_CHIP_TEXTS.understood)).toEqual(CHIPS);
    await page.getByText(OTHER_WORDS).waitFor();
    // The colour chip shows its colour.
    const swatch = page.getByRole('list', { name: PROMPT_CHIP_TEXTS.understood }).getByRole('img', {
      name: PROMPT_CHIP_TEXTS.kinds.colour,
    });
    expect(await swatch.evaluate((element) => getComputedStyle(element).backgroundColor)).toBe(
      cssColour('terracotta'),
    );
    await page.getByLabel('Negative Prompt').pressSequentially('blanco roto');
    await expect.poll(() => chipsOf(page, PROMPT_CHIP_TEXTS.excluded)).toEqual(['blanco roto']);
    await page.getByLabel(SYNTHESIS_TEXTS.label).selectOption('quilting');

    // One image; its details list the words the engine understood and acted on.
    const preview = page.getByRole('button', {
      name: new RegExp(`^${GENERATE_TEXTS.openDetails('')}`),
    });
    await generateButton().click();
    await preview.waitFor({ timeout: 90_000 });
    await expect.poll(() => generateButton().textContent(), { timeout: 10_000 }).toBe('Generate');
    const name = ((await preview.getAttribute('aria-label')) ?? '').replace(
      GENERATE_TEXTS.openDetails(''),
      '',
    );
    await preview.click();
    const details = page.getByRole('dialog', { name });
    expect(await chipsOf(details, PROMPT_CHIP_TEXTS.understoodWords)).toEqual(CHIPS);
    expect(await chipsOf(details, PROMPT_CHIP_TEXTS.excludedWords)).toEqual(['blanco roto']);
    expect(await details.locator(`dt:text-is("${SYNTHESIS_TEXTS.label}") + dd`).textContent()).toBe(
      SYNTHESIS_TEXTS.names.quilting,
    );

    // The person moves on to other words; Remix brings the image's back, chips and mode with them.
    await details.getByRole('button', { name: DIALOG_TEXTS.close }).click();
    await positive.fill('granito gris');
    await page.getByLabel(SYNTHESIS_TEXTS.label).selectOption('auto');
    await expect.poll(() => chipsOf(page, PROMPT_CHIP_TEXTS.understood)).toEqual(['gris']);
    await preview.click();
    await details.getByRole('button', { name: IMAGE_DETAILS_TEXTS.remix }).click();
    await details.waitFor({ state: 'detached' });
    await expect.poll(() => positive.inputValue()).toBe(PROMPT);
    await expect.poll(() => chipsOf(page, PROMPT_CHIP_TEXTS.understood)).toEqual(CHIPS);
    await page.getByText(OTHER_WORDS).waitFor();
    expect(await page.getByLabel(SYNTHESIS_TEXTS.label).inputValue()).toBe('quilting');
    expect(alerts).toEqual([]);
  }, 180_000);
});
