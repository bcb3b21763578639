import {
  ADMIN_TEXTS,
  adminUsersResponseSchema,
  API_ROUTES,
  DIALOG_TEXTS,
  SHELL_TEXTS,
} from '@tessera/contract';
import type { AdminUser } from '@tessera/contract';
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';

// The admin screens (issue 29) as a person reads and works them: rows, their actions, dialogs.

const T = ADMIN_TEXTS;

/** A row of the users table. */
export function userRow(page: Page, name: string): Locator {
  return page.locator(`tr[data-username="${name}"]`);
}

/** One of a row's action buttons, by its text. */
export function userAction(page: Page, name: string, action: string): Locator {
  return page
    .getByRole('group', { name: T.actionsFor(name) })
    .getByRole('button', { name: action });
}

export function modal(page: Page, title: string): Locator {
  return page.getByRole('dialog', { name: title });
}

/** The sidebar's admin link, which only an admin's sidebar has. */
export function adminLink(page: Page): Locator {
  return page
    .getByRole('navigation', { name: SHELL_TEXTS.mainNavigation })
    .getByRole('link', { name: T.navLabel });
}

/** The user as the admin API lists them now (for the counts a dialog must name). */
export async function listedUser(page: Page, name: string): Promise<AdminUser | undefined> {
  const answer = await page.request.get(API_ROUTES.adminUsers);
  return adminUsersResponseSchema.parse(await answer.json()).users.find((u) => u.username === name);
}

/**
 * The shown-once dialog of a create or reset: reads the generated password (and copies it with
 * its button: the clipboard must then hold it), closes it, and checks nothing of it stays.
 */
export async function readShownPassword(
  page: Page,
  username: string,
  typed?: string,
): Promise<string> {
  const shown = modal(page, T.passwordShownTitle(username));
  await shown.waitFor();
  let password = typed ?? '';
  if (typed === undefined) {
    password = (await shown.getByLabel(T.generatedPasswordLabel).textContent()) ?? '';
    expect(password.length).toBeGreaterThanOrEqual(12);
    await shown.getByRole('button', { name: DIALOG_TEXTS.copy }).click();
    await shown.getByRole('button', { name: DIALOG_TEXTS.copied }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(password);
  } else {
    expect(await shown.textContent()).toContain(T.passwordTyped(username));
  }
  await shown.getByRole('button', { name: DIALOG_TEXTS.done, exact: true }).click();
  await shown.waitFor({ state: 'detached' });
  if (typed === undefined) expect(await page.getByText(password).count()).toBe(0);
  return password;
}

/** Runs the create dialog; resolves with the password shown once (generated, or as typed). */
export async function createUserOnScreen(
  page: Page,
  username: string,
  options: { password?: string; admin?: boolean } = {},
): Promise<string> {
  await page.getByRole('button', { name: T.createUser }).click();
  const form = modal(page, T.createTitle);
  await form.getByLabel(T.usernameLabel).fill(username);
  if (options.admin) await form.getByLabel(T.roleLabel).selectOption('admin');
  if (options.password !== undefined) {
    await form.getByLabel(T.typePassword).check();
    await form.getByLabel(T.passwordLabel).fill(options.password);
  }
  await form.getByRole('button', { name: T.create }).click();
  return readShownPassword(page, username, options.password);
}

/** Notes every content security policy violation the page reports, from its first script on. */
export async function recordCspViolations(page: Page): Promise<() => Promise<string[]>> {
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

/** Whether a path is the admin screens' own chunk. */
export const isAdminChunk = (path: string) => /\/assets\/admin-[^/]*\.js$/.test(path);
