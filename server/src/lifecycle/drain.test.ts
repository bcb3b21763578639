import { API_ROUTES } from '@tessera/contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../testing/fixtures.js';
import { captureOutput, finished, spawnEntry } from '../testing/processes.js';

let data: ReturnType<typeof tempDir>;
beforeEach(() => {
  data = tempDir();
});
afterEach(() => data.remove());

describe('stopping behind a load balancer (SHUTDOWN_DRAIN_MS)', () => {
  it('on SIGTERM says not ready at once, keeps serving through the drain, then stops', async () => {
    // Long enough that the requests below land inside it on a busy machine; the test then waits
    // for the exit, which comes once the drain is over.
    const env = { PORT: '0', HOST: '127.0.0.1', DATA_DIR: data.dir, SHUTDOWN_DRAIN_MS: '10000' };
    const server = spawnEntry('main.ts', [], env);
    const done = finished(server);
    const output = captureOutput(server);
    const [, password] = await output.waitFor(/created user 'admin' with password (\S+)/);
    const [, url = ''] = await output.waitFor(/Tessera is running at (http:\/\/\S+)/);
    const ready = await fetch(`${url}${API_ROUTES.ready}`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready' });

    server.kill('SIGTERM');
    await output.waitFor(/SIGTERM received, stopping/);
    const draining = await fetch(`${url}${API_ROUTES.ready}`);
    expect(draining.status).toBe(503);
    expect(await draining.json()).toEqual({ status: 'stopping' });
    // Still serving meanwhile: alive, and a user's request goes through.
    expect((await fetch(`${url}${API_ROUTES.health}`)).status).toBe(200);
    const login = await fetch(`${url}${API_ROUTES.login}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password }),
    });
    expect(login.status).toBe(200);
    // The drain was still on when these answered: the process has not begun to stop.
    expect(server.exitCode).toBeNull();

    const result = await done;
    expect(result.code).toBe(0);
    // Then it takes no more requests.
    await expect(fetch(`${url}${API_ROUTES.health}`)).rejects.toThrow();
  }, 60_000);
});
