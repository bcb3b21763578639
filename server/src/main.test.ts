import fs from 'node:fs';
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
    const added = await runEntry('cli/users.ts', ['add', 'carol'], env, 'carol-password-1\n');
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
