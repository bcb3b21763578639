import { SHELL_TEXTS } from '@tessera/contract';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserMissing, launchBrowser } from './support/browser.js';
import { commandOverMqtt } from './support/seed.js';
import { startServer, type RunningServer } from './support/server.js';
import { addNewUser, openPage, signIn } from './support/session.js';
import { openScreen } from './support/screen.js';

describe.skipIf(browserMissing)('content security policy in the browser', () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  /** Every CSP violation the page reports, as the browser sees it. */
  async function recordViolations(page: Page): Promise<() => Promise<string[]>> {
    await page.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { cspViolations: string[] }).cspViolations = seen;
      document.addEventListener('securitypolicyviolation', (event) =>
        seen.push(`${event.violatedDirective} ${event.blockedURI}`),
      );
    });
    return () =>
      page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations);
  }

  it('runs every screen under the policy: connected, no violation', async () => {
    const user = addNewUser(server, 'csp');
    const page = await openPage(browser, server);
    const violations = await recordViolations(page);
    await signIn(page, user.username, user.password);
    await expect
      .poll(() => page.getByRole('status', { name: SHELL_TEXTS.connection.label }).textContent(), {
        timeout: 15_000,
      })
      .toBe(SHELL_TEXTS.connection.connected);
    for (const label of ['Generate', 'Output', 'Dashboard']) {
      await openScreen(page, label);
      await page.waitForLoadState('networkidle');
      expect(await violations(), label).toEqual([]);
    }
    await page.context().close();
  });

  it('refuses a tag colour that is not a hex colour, and never fetches it', async () => {
    const user = addNewUser(server, 'colour');
    const evil = `${server.url}/evil-colour.png`;
    await expect(
      commandOverMqtt(server, user, 'create-tag', {
        id: 'hostile',
        name: 'Hostile',
        color: `url(${evil})`,
      }),
    ).rejects.toThrow(/create-tag failed/);

    const page = await openPage(browser, server);
    const fetched: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('evil-colour')) fetched.push(request.url());
    });
    await signIn(page, user.username, user.password);
    await page.waitForLoadState('networkidle');
    expect(await page.getByText('Hostile').count()).toBe(0);
    expect(fetched).toEqual([]);
    await page.context().close();
  });
});
