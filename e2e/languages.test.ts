import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  ADMIN_TEXTS,
  ADMIN_TEXTS_EN,
  buildHdCommand,
  ENGINE_HELP_TEXTS,
  ENGINE_HELP_TEXTS_EN,
  errorText,
  formatImageDate,
  GENERATE_TEXTS_EN,
  PROMPT_CHIP_TEXTS,
  PROMPT_CHIP_TEXTS_EN,
  REFERENCE_PREP_TEXTS,
  REFERENCE_PREP_TEXTS_EN,
  REFERENCE_WARNING_TEXTS,
  REFERENCE_WARNING_TEXTS_EN,
  SCREEN_PATHS,
  SHELL_TEXTS,
  SHELL_TEXTS_EN,
  shownErrorText,
  TAG_TEXTS,
  TAG_TEXTS_EN,
} from '@tessera/contract';
import type { Browser, Locator, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { floorPhoto, tileFloor, withSideLight } from '../server/src/testing/perspective-floor.js';
import { browserMissing, launchBrowser } from './support/browser.js';
import { orderHdOverMqtt, seedLdImages } from './support/seed.js';
import { startServer, type RunningServer } from './support/server.js';
import { addNewUser, collectAlerts, openPage, signIn, type User } from './support/session.js';

// Issue 30, part 5: the interface in the browser's language, with a switch that is remembered.
describe.skipIf(browserMissing)('two languages', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  let user: User;
  let alerts: string[];
  const created = { created_at: '2024-03-04T15:06:07Z' };
  const SQUARE = { latent_width: 1024, latent_height: 1024, kseed: 42 };

  beforeAll(async () => {
    // The fast upscaler: the print dialog needs an HD image.
    server = await startServer({ BUILTIN_UPSCALER: 'lanczos', JOB_CONCURRENCY: '1' });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });
  beforeEach(async () => {
    user = addNewUser(server, 'lang');
    // An English browser: its first language is en-GB.
    page = await openPage(browser, server, { locale: 'en-GB' });
    alerts = collectAlerts(page);
  });
  afterEach(() => page.context().close());

  const htmlLang = () => page.evaluate(() => document.documentElement.lang);
  const toSpanish = () => page.getByRole('button', { name: 'Español' }).click();
  const dateCell = () => page.locator('td.cell-date').first().textContent();

  it('speaks English to an English browser, and Spanish verbatim once switched', async () => {
    await page.goto(SCREEN_PATHS.login);
    const switchOnLogin = page.getByRole('group', { name: 'Language' });
    await switchOnLogin.waitFor();
    expect(await htmlLang()).toBe('en-GB');
    expect(
      await switchOnLogin.getByRole('button', { name: 'English' }).getAttribute('aria-pressed'),
    ).toBe('true');
    expect(await page.getByText('Enter your account details to continue.').isVisible()).toBe(true);

    await signIn(page, user.username, user.password);
    await page.getByText('No images found.').waitFor();

    // Switch to Spanish in the sidebar: the spec's own texts, as SPEC writes them.
    await page
      .getByRole('group', { name: 'Language' })
      .getByRole('button', { name: 'Español' })
      .click();
    await page.getByText('No se han encontrado imágenes.').waitFor();
    expect(await htmlLang()).toBe('es-ES');
    await page.getByRole('group', { name: 'Idioma' }).waitFor();

    // The choice outlives a reload, though the browser still prefers English.
    await page.reload();
    await page.getByText('No se han encontrado imágenes.').waitFor();
    expect(await htmlLang()).toBe('es-ES');
  });

  it('writes dates in the chosen locale: en-GB in English, es-ES in Spanish', async () => {
    await seedLdImages(server, user, [{ filename: 'dated.png', metadata: created }]);
    await signIn(page, user.username, user.password);
    await page.getByRole('button', { name: 'List' }).click();
    await expect.poll(dateCell).toBe(formatImageDate(created, undefined, 'en'));

    await page.getByRole('button', { name: 'Español' }).click();
    await expect.poll(dateCell).toBe(formatImageDate(created));
    expect(formatImageDate(created)).not.toBe(formatImageDate(created, undefined, 'en'));
  });

  it('tells an upload refusal in the language shown', async () => {
    const folder = await fs.mkdtemp(path.join(os.tmpdir(), 'tessera-lang-'));
    const notes = path.join(folder, 'notes.pdf');
    await fs.writeFile(notes, '%PDF-1.4');
    await signIn(page, user.username, user.password);
    await page.goto(SCREEN_PATHS.generate);

    const choose = async () => {
      const chooser = page.waitForEvent('filechooser');
      await page.getByRole('button', { name: /reference image|imagen de referencia/ }).click();
      await (await chooser).setFiles(notes);
    };
    await choose();
    await expect
      .poll(() => alerts)
      .toEqual(['Format not supported. Use: png, jpg, jpeg, bmp, gif or webp.']);

    await page.getByRole('button', { name: 'Español' }).click();
    await choose();
    await expect
      .poll(() => alerts.at(-1))
      .toBe('Formato no admitido. Usa: png, jpg, jpeg, bmp, gif o webp.');
    await fs.rm(folder, { recursive: true, force: true });
  });

  it('shows the account screens (API tokens, webhooks) in the language chosen', async () => {
    await signIn(page, user.username, user.password);
    await page.getByRole('link', { name: 'API tokens' }).click();
    await page.getByRole('button', { name: 'Create token' }).waitFor();
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('button', { name: 'Add webhook' }).waitFor();

    await page.getByRole('button', { name: 'Español' }).click();
    await page.getByRole('button', { name: 'Añadir webhook' }).waitFor();
    await page.getByRole('link', { name: 'Tokens de API' }).click();
    await page.getByRole('button', { name: 'Crear token' }).waitFor();
  });

  it('shows the Generate screen (engine help, prompt chips, reference advice) in the language chosen', async () => {
    // A floor photographed at an angle, lit from one side: the check warns of its perspective.
    const folder = await fs.mkdtemp(path.join(os.tmpdir(), 'tessera-lang-'));
    const floor = path.join(folder, 'floor.jpg');
    const photo = withSideLight(
      floorPhoto(tileFloor(), {
        width: 640,
        height: 480,
        pitchDegrees: 50,
        fovDegrees: 45,
        cameraHeight: 5,
      }),
      90,
    );
    await sharp(photo.data, { raw: { width: photo.width, height: photo.height, channels: 4 } })
      .removeAlpha()
      .jpeg()
      .toFile(floor);
    await signIn(page, user.username, user.password);
    await page.goto(SCREEN_PATHS.generate);

    const help = ENGINE_HELP_TEXTS_EN.controls.builtin.similarity;
    await page.getByText(help).waitFor();
    await page.getByLabel('Positive Prompt').fill('terracota pulido');
    await page.getByRole('list', { name: PROMPT_CHIP_TEXTS_EN.understood }).waitFor();
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: GENERATE_TEXTS_EN.uploadReference }).click();
    await (await chooser).setFiles(floor);
    await page
      .getByRole('region', { name: REFERENCE_PREP_TEXTS_EN.warningsTitle })
      .getByText(REFERENCE_WARNING_TEXTS_EN.perspective)
      .waitFor({ timeout: 20_000 });

    await toSpanish();
    await page.getByText(ENGINE_HELP_TEXTS.controls.builtin.similarity).waitFor();
    await page.getByRole('list', { name: PROMPT_CHIP_TEXTS.understood }).waitFor();
    await page
      .getByRole('region', { name: REFERENCE_PREP_TEXTS.warningsTitle })
      .getByText(REFERENCE_WARNING_TEXTS.perspective)
      .waitFor();
    await page.getByRole('button', { name: REFERENCE_PREP_TEXTS.prepare }).waitFor();
    expect(await page.getByText(help).count()).toBe(0);
    await fs.rm(folder, { recursive: true, force: true });
  });

  it('shows the tags panel in the language chosen', async () => {
    await signIn(page, user.username, user.password);
    await page.getByRole('searchbox', { name: TAG_TEXTS_EN.search }).waitFor();
    await page.getByRole('button', { name: TAG_TEXTS_EN.newTag }).click();
    const dialog = page.getByRole('dialog', { name: TAG_TEXTS_EN.newTag });
    await dialog.getByLabel(TAG_TEXTS_EN.colour).waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    await toSpanish();
    await page.getByRole('searchbox', { name: TAG_TEXTS.search }).waitFor();
    await page.getByRole('button', { name: TAG_TEXTS.newTag }).click();
    await page
      .getByRole('dialog', { name: TAG_TEXTS.newTag })
      .getByLabel(TAG_TEXTS.colour)
      .waitFor();
  });

  it('shows the LD details and their material maps in the language chosen', async () => {
    await seedLdImages(server, user, [
      { filename: 'slate.png', width: 1024, height: 1024, metadata: SQUARE },
    ]);
    await signIn(page, user.username, user.password);
    const openDetails = async () => {
      await page.getByRole('button', { name: 'slate.png', exact: true }).click();
      const details = page.getByRole('dialog', { name: 'slate.png' });
      await details.waitFor();
      return details;
    };
    const closeDetails = async () => {
      await page.keyboard.press('Escape');
      await page.getByRole('dialog').waitFor({ state: 'detached' });
    };

    let details = await openDetails();
    await details.getByRole('button', { name: 'Use these settings' }).waitFor();
    let maps = details.getByRole('region', { name: 'Material maps' });
    await maps.getByRole('button', { name: 'Generate maps' }).waitFor();
    // The spec's own texts are the same in both languages.
    await details.getByRole('button', { name: 'Generate HD' }).waitFor();
    await closeDetails();

    await toSpanish();
    details = await openDetails();
    await details.getByRole('button', { name: 'Usar estos ajustes' }).waitFor();
    maps = details.getByRole('region', { name: 'Mapas de material' });
    await maps.getByRole('button', { name: 'Generar mapas' }).waitFor();
    await details.getByRole('button', { name: 'Generate HD' }).waitFor();
    await closeDetails();
  });

  it('shows the print dialog in the language chosen, its numbers in its locale', async () => {
    await seedLdImages(server, user, [
      { filename: 'terrazzo.png', width: 1024, height: 1024, metadata: SQUARE },
    ]);
    const hd = await orderHdOverMqtt(
      server,
      user,
      buildHdCommand({
        id: `e2e-lang-${Date.now()}`,
        user: user.username,
        image: 'terrazzo.png',
        metadata: SQUARE,
        sizeLabel: '30x30',
      }),
    );
    await signIn(page, user.username, user.password);
    const openPrintDialog = async (name: string) => {
      await page.goto(SCREEN_PATHS.output);
      await page.getByRole('button', { name: hd, exact: true }).click();
      // SPEC's name of the details, in both languages.
      await page
        .getByRole('dialog', { name: 'HD Image Details' })
        .getByRole('button', { name })
        .click();
      const dialog = page.getByRole('dialog', { name });
      await dialog.waitFor();
      return dialog;
    };
    const pixels = (dialog: Locator) => dialog.locator('.print-summary dd').first().textContent();

    let dialog = await openPrintDialog('Download for print');
    await dialog.getByRole('group', { name: 'Print settings' }).waitFor();
    await dialog.getByRole('button', { name: 'Make print file' }).waitFor();
    // 30 × 30 cm with 3 mm bleed at 360 dpi: 30.6 ÷ 2.54 × 360 = 4337 px a side.
    expect(await pixels(dialog)).toBe('4,337 × 4,337 px (18.8 MP)');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });

    await toSpanish();
    dialog = await openPrintDialog('Descargar para imprimir');
    await dialog.getByRole('group', { name: 'Ajustes de impresión' }).waitFor();
    await dialog.getByRole('button', { name: 'Crear archivo de impresión' }).waitFor();
    expect(await pixels(dialog)).toBe('4337 × 4337 px (18,8 MP)');
  }, 120_000);

  it("shows the login screen and the server's refusal in the language chosen", async () => {
    await page.goto(SCREEN_PATHS.login);
    const refusal = page.getByRole('alert');
    const tryPassword = async (password: string) => {
      await page.getByLabel('User').fill(user.username);
      await page.getByLabel('Password').fill(password);
      await page.getByRole('button', { name: 'Sign in' }).click();
    };
    await tryPassword('not-the-password');
    await expect.poll(() => refusal.textContent()).toBe(errorText('INVALID_CREDENTIALS'));

    await page.getByRole('button', { name: 'Español' }).click();
    await page.getByText(SHELL_TEXTS.loginLead).waitFor();
    await tryPassword('still-not-the-password');
    await expect
      .poll(() => refusal.textContent())
      .toBe(shownErrorText('es', 'INVALID_CREDENTIALS'));
    expect(shownErrorText('es', 'INVALID_CREDENTIALS')).not.toBe(errorText('INVALID_CREDENTIALS'));
  });

  it('shows the admin screens and the sidebar in the language chosen', async () => {
    await signIn(page, 'admin', server.adminPassword);
    await page.getByRole('link', { name: ADMIN_TEXTS_EN.navLabel }).click();
    await page.getByRole('heading', { name: ADMIN_TEXTS_EN.usersTitle, level: 1 }).waitFor();
    await page.getByRole('button', { name: SHELL_TEXTS_EN.signOut }).waitFor();

    await page.getByRole('button', { name: 'Español' }).click();
    await page.getByRole('heading', { name: ADMIN_TEXTS.usersTitle, level: 1 }).waitFor();
    await page.getByRole('link', { name: ADMIN_TEXTS.auditTab }).click();
    await page.getByRole('heading', { name: ADMIN_TEXTS.auditTitle, level: 1 }).waitFor();
    await page.getByRole('button', { name: SHELL_TEXTS.signOut }).waitFor();
  });
});
