import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  ADMIN_TEXTS,
  API_ROUTES,
  auditPageSchema,
  bytesToGb,
  shownErrorText,
  formatQuotaBytes,
  GENERATE_TEXTS,
  STORAGE_TEXTS,
} from '@tessera/contract';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listedUser, modal, userAction, userRow } from './support/admin-screen.js';
import { browserMissing, launchBrowser } from './support/browser.js';
import { grainyPhoto } from './support/reference.js';
import { seedLdImages } from './support/seed.js';
import { startServer, type RunningServer } from './support/server.js';
import { addNewUser, openPage, signIn, type User } from './support/session.js';
import { openScreen } from './support/screen.js';

const T = ADMIN_TEXTS;

/**
 * Issue 29, part 3, in the browser: an admin sets the default quotas and a member's own on the
 * users screen; the member sees their storage as a bar in the sidebar with the 90 % warning, and
 * an upload past the quota is refused with the contract's text on the Generate screen.
 */
describe.skipIf(browserMissing)('quotas', () => {
  let server: RunningServer;
  let browser: Browser;
  let admin: Page;
  let member: User;
  let folder: string;

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
    member = addNewUser(server, 'quota');
    await seedLdImages(server, member, [{ filename: 'wall.png', color: '#884422' }]);
    folder = await fs.mkdtemp(path.join(os.tmpdir(), 'tessera-quotas-'));
    await fs.writeFile(
      path.join(folder, 'oak.png'),
      await grainyPhoto({ width: 160, height: 120, base: [120, 80, 50], grain: 60, format: 'png' }),
    );
    admin = await openPage(browser, server);
    await signIn(admin, 'admin', server.adminPassword);
    await openScreen(admin, T.navLabel);
    await admin.getByRole('heading', { name: T.usersTitle, level: 1 }).waitFor();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    if (folder) await fs.rm(folder, { recursive: true, force: true });
  });

  async function quotaAudit(target: string) {
    const answer = await admin.request.get(
      `${API_ROUTES.adminAudit}?action=quota-changed&target=${target}`,
    );
    return auditPageSchema.parse(await answer.json()).entries;
  }

  it('changes the default quotas in their dialog, and the audit trail has the change', async () => {
    await admin.getByRole('button', { name: T.defaultQuotas }).click();
    const form = modal(admin, T.defaultQuotas);
    await form.getByLabel(T.quotaPreviewsLabel).fill('15');
    await form.getByLabel(T.quotaHdLabel).fill('');
    await form.getByRole('button', { name: T.save }).click();
    // The queues of the defaults have no default of their own: the contract's text, no change.
    await expect
      .poll(() => form.getByRole('alert').textContent())
      .toBe(shownErrorText('es', 'QUOTA_INVALID'));
    expect(await quotaAudit('default')).toEqual([]);

    await form.getByLabel(T.quotaHdLabel).fill('40');
    await form.getByRole('button', { name: T.save }).click();
    await admin.getByRole('status').filter({ hasText: T.defaultsSaved }).waitFor();
    await admin.getByText(T.defaultQuotasSummary(T.noLimit, 15, 40)).waitFor();
    const [entry] = await quotaAudit('default');
    expect(entry).toMatchObject({
      actor: 'admin',
      details: {
        from: { storageBytes: null, queuedPreviews: 20, queuedHd: 50 },
        to: { storageBytes: null, queuedPreviews: 15, queuedHd: 40 },
      },
    });
  });

  it("sets a member's storage quota: they see the bar, the 90 % warning, and an upload refused", async () => {
    const used = (await listedUser(admin, member.username))?.storageBytes ?? 0;
    expect(used).toBeGreaterThan(0);
    // 95 % used: past the warning, and the upload (kilobytes) passes the few bytes left.
    const quota = Math.ceil(used / 0.95);

    await userAction(admin, member.username, T.quotas).click();
    const form = modal(admin, T.userQuotasTitle(member.username));
    await form.getByText(T.quotaDefaultHint('40')).waitFor();
    await form.getByLabel(T.quotaStorageLabel).fill('mucho');
    await form.getByRole('button', { name: T.save }).click();
    await expect
      .poll(() => form.getByRole('alert').textContent())
      .toBe(shownErrorText('es', 'QUOTA_INVALID'));
    await form.getByLabel(T.quotaStorageLabel).fill(bytesToGb(quota));
    await form.getByRole('button', { name: T.save }).click();
    await admin
      .getByRole('status')
      .filter({ hasText: T.quotasSaved(member.username) })
      .waitFor();
    await expect
      .poll(() => userRow(admin, member.username).textContent())
      .toContain(T.storageCell(formatQuotaBytes(used), formatQuotaBytes(quota)));
    const [entry] = await quotaAudit(member.username);
    expect(entry).toMatchObject({
      actor: 'admin',
      details: {
        from: { storageBytes: null, queuedPreviews: null, queuedHd: null },
        to: { storageBytes: quota, queuedPreviews: null, queuedHd: null },
      },
    });

    const page = await openPage(browser, server);
    try {
      await signIn(page, member.username, member.password);
      const meter = page.getByRole('group', { name: STORAGE_TEXTS.label });
      await meter.getByText(STORAGE_TEXTS.usedOfQuota(used, quota)).waitFor();
      expect(await meter.locator('[role="meter"]').getAttribute('aria-valuenow')).toBe('95');
      expect(await meter.getByRole('status').textContent()).toBe(STORAGE_TEXTS.warning);

      await openScreen(page, 'Generate');
      const chooser = page.waitForEvent('filechooser');
      await page.getByRole('button', { name: /imagen de referencia/ }).click();
      await (await chooser).setFiles(path.join(folder, 'oak.png'));
      await page.getByRole('button', { name: GENERATE_TEXTS.changeReference('oak.png') }).waitFor();
      await page.getByLabel('Positive Prompt').fill('oak planks');
      await page.getByLabel('Negative Prompt').fill('blurry');
      await page.getByRole('button', { name: /^Generat/ }).click();
      const refusal = page.locator('.generate-error[role="alert"]');
      await expect
        .poll(() => refusal.textContent(), { timeout: 20_000 })
        .toContain(shownErrorText('es', 'STORAGE_QUOTA_EXCEEDED', formatQuotaBytes(quota, 'en')));
      // Nothing was stored: the use is what it was.
      expect((await listedUser(admin, member.username))?.storageBytes).toBe(used);
    } finally {
      await page.context().close();
    }
  });

  it('shows a user without a storage quota their use alone, no bar', async () => {
    const meter = admin.getByRole('group', { name: STORAGE_TEXTS.label });
    await meter.waitFor();
    expect(await meter.textContent()).toMatch(/ usados$/);
    expect(await meter.locator('[role="meter"]').count()).toBe(0);
  });
});
