import { SCREEN_PATHS } from '@tessera/contract';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import type { RunningServer } from './server.js';

const USERS_CLI = fileURLToPath(new URL('../../server/dist/commands/users.js', import.meta.url));

export interface User {
  username: string;
  password: string;
}

/**
 * A page in a new browser context on the server (its own cookies, as a new visitor), with the
 * server as base URL. Close it with `page.context().close()`.
 */
export async function openPage(
  browser: Browser,
  server: RunningServer,
  options: BrowserContextOptions = {},
): Promise<Page> {
  const context = await browser.newContext({ baseURL: server.url, ...options });
  return context.newPage();
}

/** Accepts every alert the page shows, as a person clicks OK, and notes its text in the list. */
export function collectAlerts(page: Page): string[] {
  const alerts: string[] = [];
  page.on('dialog', (dialog) => {
    alerts.push(dialog.message());
    void dialog.accept();
  });
  return alerts;
}

/** Signs in through the login form, as a person would, and waits for the dashboard. */
export async function signIn(page: Page, username: string, password: string): Promise<void> {
  await page.goto(SCREEN_PATHS.login);
  await page.getByLabel('User').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL('**/dashboard');
}

/** Creates a user with the operator's CLI (`npm run users add NAME`) against the server's data. */
export function addUser(server: RunningServer, username: string, password: string): void {
  const result = spawnSync(process.execPath, [USERS_CLI, 'add', username], {
    env: { ...process.env, DATA_DIR: server.dataDir, LOG_LEVEL: 'silent' },
    input: `${password}\n`,
    encoding: 'utf8',
  });
  if (result.status !== 0) {
    throw new Error(`users add ${username} failed: ${result.stderr || result.stdout}`);
  }
}

let usersMade = 0;

/** A new user made with the operator's CLI, `<prefix><n>`, so that each test has its own data. */
export function addNewUser(server: RunningServer, prefix: string): User {
  usersMade += 1;
  const user = { username: `${prefix}${usersMade}`, password: `${prefix}-password-${usersMade}` };
  addUser(server, user.username, user.password);
  return user;
}

/** Where the server keeps a user's files of one area (DATA_DIR/files/<user>/<area>). */
export function userFolder(server: RunningServer, username: string, area: string): string {
  return path.join(server.dataDir, 'files', username, area);
}
