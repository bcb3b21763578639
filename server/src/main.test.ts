import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from './testing/fixtures.js';
import { captureOutput, finished, runEntry, spawnEntry } from './testing/processes.js';

let data: ReturnType<typeof tempDir>;
beforeEach(() => {
  data = tempDir();
});
afterEach(() => data.remove());

describe('the server program', () => {
  it('creates an admin on first start, prints its password once, and stops cleanly on SIGTERM', async () => {
    const env = { PORT: '0', HOST: '127.0.0.1', DATA_DIR: data.dir };
    const server = spawnEntry('main.ts', [], env);
    const done = finished(server);
    const output = captureOutput(server);
    const [, password] = await output.waitFor(/created user 'admin' with password (\S+)/);
    const [, url] = await output.waitFor(/Tessera is running at (http:\/\/\S+)/);

    const login = await fetch(`${url}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password }),
    });
    expect(login.status).toBe(200);

    server.kill('SIGTERM');
    const result = await done;
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('SIGTERM received, stopping');

    // The second start finds the admin and prints no password.
    const again = spawnEntry('main.ts', [], env);
    const againDone = finished(again);
    await captureOutput(again).waitFor(/Tessera is running at/);
    again.kill('SIGINT');
    const second = await againDone;
    expect(second.code).toBe(0);
    expect(second.stdout).not.toContain('password');
  }, 60_000);

  it('refuses a bad configuration with a clear message and exit code 1', async () => {
    const result = await runEntry('main.ts', [], { PORT: 'eighty', DATA_DIR: data.dir });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      "Invalid configuration:\n  PORT must be a whole number from 0 to 65535 (got 'eighty')\n",
    );

    const theme = await runEntry('main.ts', [], { THEME: 'neon', DATA_DIR: data.dir, PORT: '0' });
    expect(theme.code).toBe(1);
    expect(theme.stderr).toMatch(/THEME must be one of .*default/);
  }, 30_000);

  it('refuses a second start on the same data folder before any repair; a killed one blocks nothing (issue 22, part 7)', async () => {
    const env = { PORT: '0', HOST: '127.0.0.1', DATA_DIR: data.dir };
    const first = spawnEntry('main.ts', [], env);
    const firstDone = finished(first);
    const [, port] = await captureOutput(first).waitFor(/Tessera is running at \S+:(\d+)/);
    // Work of the live process in its scratch folder, which a start wipes.
    const marker = path.join(data.dir, 'tmp', 'upload-in-progress');
    fs.mkdirSync(path.dirname(marker), { recursive: true });
    fs.writeFileSync(marker, 'half an upload');

    // As an operator's slip would: the same folder and port.
    const second = await runEntry('main.ts', [], { ...env, PORT: port });
    expect(second.code).toBe(1);
    expect(second.stderr).toContain(
      `Tessera failed to start: another Tessera process (pid ${first.pid}) is running on the data folder ${data.dir}`,
    );
    expect(fs.readFileSync(marker, 'utf8')).toBe('half an upload');

    // The operator's CLI runs no repair: it works beside the running server.
    const added = await runEntry('commands/users.ts', ['add', 'carol'], env, 'carol-password-1\n');
    expect(added.code).toBe(0);

    first.kill('SIGKILL');
    await firstDone;
    const next = spawnEntry('main.ts', [], env);
    const nextDone = finished(next);
    await captureOutput(next).waitFor(/Tessera is running at/);
    next.kill('SIGTERM');
    expect((await nextDone).code).toBe(0);
  }, 90_000);
});

async function signIn(url: string, password: string): Promise<number> {
  const login = await fetch(`${url}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password }),
  });
  return login.status;
}

/** Starts the server on `env`, signs in as admin with `password`, stops it; the sign-in status. */
async function startAndSignIn(env: NodeJS.ProcessEnv, password: string) {
  const server = spawnEntry('main.ts', [], env);
  const done = finished(server);
  const [, url] = await captureOutput(server).waitFor(/Tessera is running at (http:\/\/\S+)/);
  const status = await signIn(url ?? '', password);
  server.kill('SIGTERM');
  const result = await done;
  expect(result.code).toBe(0);
  return { status, stdout: result.stdout };
}

describe('the first administrator password (issue 23, part 3)', () => {
  it('survives a first start that fails on a busy port: kept in DATA_DIR/initial-admin-password until changed', async () => {
    const squatter = net.createServer();
    await new Promise<void>((resolve) => squatter.listen(0, '127.0.0.1', resolve));
    const busy = (squatter.address() as net.AddressInfo).port;
    const env = { HOST: '127.0.0.1', DATA_DIR: data.dir };
    let failed;
    try {
      failed = await runEntry('main.ts', [], { ...env, PORT: String(busy) });
    } finally {
      squatter.close();
    }
    expect(failed.code).toBe(1);
    expect(failed.stderr).toBe(
      `Tessera failed to start: port ${busy} on 127.0.0.1 is in use by another program: set PORT to a free port, or stop that program\n`,
    );

    const file = path.join(data.dir, 'initial-admin-password');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const password = fs.readFileSync(file, 'utf8').trim();
    expect(password.length).toBeGreaterThanOrEqual(16);

    // The next start creates no other admin; the saved password signs in.
    const next = await startAndSignIn({ ...env, PORT: '0' }, password);
    expect(next.status).toBe(200);
    expect(next.stdout).not.toContain('created user');
    expect(fs.existsSync(file)).toBe(true);

    const changed = await runEntry(
      'commands/users.ts',
      ['passwd', 'admin'],
      env,
      'a-new-password\n',
    );
    expect(changed.code).toBe(0);
    expect(fs.existsSync(file)).toBe(false);
  }, 90_000);

  it('says where the generated password is kept on the first start', async () => {
    const env = { PORT: '0', HOST: '127.0.0.1', DATA_DIR: data.dir };
    const server = spawnEntry('main.ts', [], env);
    const done = finished(server);
    const output = captureOutput(server);
    const [, password, where] = await output.waitFor(
      /created user 'admin' with password (\S+)\n\(also in (\S+) until it is changed/,
    );
    await output.waitFor(/Tessera is running at/);
    server.kill('SIGTERM');
    await done;
    expect(where).toBe(path.join(data.dir, 'initial-admin-password'));
    expect(fs.readFileSync(where ?? '', 'utf8')).toBe(`${password}\n`);
  }, 60_000);

  it('takes ADMIN_PASSWORD (or ADMIN_PASSWORD_FILE) on the first start and saves no copy', async () => {
    const secret = path.join(data.dir, 'admin-secret');
    fs.writeFileSync(secret, 'operator-chosen-1\n', { mode: 0o600 });
    const env = { PORT: '0', HOST: '127.0.0.1', DATA_DIR: data.dir };
    const first = await startAndSignIn(
      { ...env, ADMIN_PASSWORD_FILE: secret },
      'operator-chosen-1',
    );
    expect(first.status).toBe(200);
    expect(first.stdout).toContain("created user 'admin' with the password ADMIN_PASSWORD gave");
    expect(first.stdout).not.toContain('operator-chosen-1');
    expect(fs.existsSync(path.join(data.dir, 'initial-admin-password'))).toBe(false);

    // Only the first start: later, the users' own passwords stand.
    const later = await startAndSignIn(
      { ...env, ADMIN_PASSWORD: 'another-one-2' },
      'another-one-2',
    );
    expect(later.status).toBe(401);
  }, 90_000);
});
