import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { GENERATE_TEXTS } from '@tessera/contract';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { browserMissing, launchBrowser } from './support/browser.js';
import { startServer, type RunningServer } from './support/server.js';
import { collectAlerts, openPage, signIn } from './support/session.js';
import { openScreen } from './support/screen.js';

/**
 * The reference upload on Generate (SPEC §2, §5; checklist G1, U1–U5): each rule's message as
 * an alert, and a refused file is not taken. The files are real ones, chosen in the file dialog
 * or dropped on the upload area.
 */

describe.skipIf(browserMissing)('Generate: the reference upload', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  let folder: string;
  let alerts: string[];

  beforeAll(async () => {
    server = await startServer({ BUILTIN_UPSCALER: 'lanczos' });
    browser = await launchBrowser();
    folder = await fs.mkdtemp(path.join(os.tmpdir(), 'tessera-upload-'));
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    if (folder) await fs.rm(folder, { recursive: true, force: true });
  });
  beforeEach(async () => {
    page = await openPage(browser, server);
    alerts = collectAlerts(page);
    await signIn(page, 'admin', server.adminPassword);
    await openScreen(page, 'Generate');
    await page.waitForURL('**/generate');
  });
  afterEach(() => page.context().close());

  async function writeFile(name: string, data: Buffer | Uint8Array): Promise<string> {
    const file = path.join(folder, name);
    await fs.writeFile(file, data);
    return file;
  }

  /** Opens the file dialog from the upload area and picks `file`, as a person would. */
  async function choose(file: string): Promise<void> {
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: /imagen de referencia/ }).click();
    await (await chooser).setFiles(file);
  }

  const emptyUploadArea = () => page.getByRole('button', { name: GENERATE_TEXTS.uploadReference });

  async function expectRefused(message: string): Promise<void> {
    await expect.poll(() => alerts, { timeout: 10_000 }).toEqual([message]);
    expect(await emptyUploadArea().isVisible()).toBe(true);
  }

  const texture = (width: number, height: number) =>
    sharp({ create: { width, height, channels: 3, background: '#7a5c3e' } })
      .png()
      .toBuffer();

  it('[G1] takes an image chosen in the file dialog and shows it with its size', async () => {
    await choose(await writeFile('oak.png', await texture(640, 480)));
    const area = page.getByRole('button', { name: GENERATE_TEXTS.changeReference('oak.png') });
    await area.waitFor();
    expect(await area.textContent()).toContain('640×480');
    expect(alerts).toEqual([]);
  });

  it('[G1][U1][U5] takes a dropped image, and refuses a dropped file of another format', async () => {
    const drop = async (name: string, type: string, data: Buffer) => {
      const transfer = await page.evaluateHandle(
        ({ name, type, base64 }) => {
          const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
          const dataTransfer = new DataTransfer();
          dataTransfer.items.add(new File([bytes], name, { type }));
          return dataTransfer;
        },
        { name, type, base64: data.toString('base64') },
      );
      const area = page.getByRole('button', { name: /imagen de referencia/ });
      await area.dispatchEvent('dragover', { dataTransfer: transfer });
      await area.dispatchEvent('drop', { dataTransfer: transfer });
    };

    await drop('slate.png', 'image/png', await texture(300, 200));
    await page.getByRole('button', { name: GENERATE_TEXTS.changeReference('slate.png') }).waitFor();

    await drop('notes.pdf', 'application/pdf', Buffer.from('%PDF-1.4'));
    await expect
      .poll(() => alerts)
      .toEqual(['Formato no admitido. Usa: png, jpg, jpeg, bmp, gif o webp.']);
    // The refused file is not taken: the earlier reference stays.
    expect(
      await page
        .getByRole('button', { name: GENERATE_TEXTS.changeReference('slate.png') })
        .isVisible(),
    ).toBe(true);
  });

  it('[U1][U5] a file that is not png, jpg, jpeg, bmp, gif or webp is refused', async () => {
    await choose(await writeFile('texture.tiff', await texture(64, 64)));
    await expectRefused('Formato no admitido. Usa: png, jpg, jpeg, bmp, gif o webp.');
  });

  it('[U2][U5] a file over 25 MB (26214400 bytes) is refused', async () => {
    // A real PNG, padded past the limit by one byte (trailing bytes after IEND are ignored).
    const png = await texture(64, 64);
    const padded = Buffer.concat([png, Buffer.alloc(26_214_400 + 1 - png.length)]);
    await choose(await writeFile('huge.png', padded));
    await expectRefused('El archivo supera el tamaño máximo permitido (25 MB).');
  });

  it('[U3][U5] an image over 17 MP is refused with its real size in the message', async () => {
    await choose(await writeFile('wide.png', await texture(5000, 4000)));
    await expectRefused(
      'La imagen (5000x4000, 20.00 MP) supera el máximo permitido: 17.00 MP (~4096×4096).',
    );
  });

  it('[U4][U5] an image whose dimensions cannot be read is refused', async () => {
    await choose(await writeFile('broken.png', Buffer.from('not really a picture')));
    await expectRefused('No se han podido leer las dimensiones de la imagen.');
  });
});
