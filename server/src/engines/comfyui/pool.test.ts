import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { once } from 'node:events';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { startComfyStandIn, type ComfyStandIn } from '../../testing/comfyui-stand-in/index.js';
import type { ComfyWorkflow } from './api-types.js';
import { ComfyClient } from './client.js';
import { ComfyServerError, ComfyValidationError } from './errors.js';
import { ServerPool } from './pool.js';
import { DEFAULT_WORKFLOWS_DIR } from './workflows.js';

const standIns: ComfyStandIn[] = [];
afterEach(async () => {
  await Promise.all(standIns.splice(0).map((comfy) => comfy.close()));
});
async function standIn(options: Parameters<typeof startComfyStandIn>[0] = {}) {
  const comfy = await startComfyStandIn(options);
  standIns.push(comfy);
  return comfy;
}
const never = () => new AbortController().signal;
const preview = (): ComfyWorkflow =>
  JSON.parse(
    fs.readFileSync(path.join(DEFAULT_WORKFLOWS_DIR, 'preview.json'), 'utf8'),
  ) as ComfyWorkflow;

describe('server pool', () => {
  it("picks the server with the shortest queue, counting other clients' prompts", async () => {
    const busy = await standIn({ paused: true });
    const idle = await standIn();
    // Another ComfyUI user has queued two prompts on the first server.
    const other = new ComfyClient(busy.url);
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } })
      .png()
      .toBuffer();
    await other.uploadImage(png, 'reference.png');
    await other.queuePrompt(preview(), 'someone-else');
    await other.queuePrompt(preview(), 'someone-else');
    expect(busy.queueRemaining()).toBe(2);

    const pool = new ServerPool([new ComfyClient(busy.url), new ComfyClient(idle.url)]);
    const first = await pool.acquire(never());
    expect(first.client.url).toBe(idle.url);
    // Tessera's own job counts too: 1 on the idle one, 2 on the busy one.
    const second = await pool.acquire(never());
    expect(second.client.url).toBe(idle.url);
    const third = await pool.acquire(never());
    expect(third.client.url).toBe(busy.url);
    for (const lease of [first, second, third]) lease.release();
    const health = await pool.health();
    expect(health.servers?.map((s) => [s.queueRemaining, s.activeJobs])).toEqual([
      [2, 0],
      [0, 0],
    ]);
    pool.close();
  });

  it('a failed server is left out, checked again after a growing pause, and back once it answers', async () => {
    const comfy = await standIn();
    const port = comfy.port;
    const client = new ComfyClient(comfy.url);
    const other = await standIn();
    const pool = new ServerPool([client, new ComfyClient(other.url)], { retryAfterMs: 150 });
    const lease = await pool.acquire(never());
    expect(lease.client).toBe(client);
    lease.fail(new ComfyServerError(client.displayUrl, 'dropped the websocket'));
    lease.release();
    await comfy.crash();

    let health = await pool.health();
    expect(health.servers?.[0]).toMatchObject({
      state: 'down',
      lastError: `ComfyUI server ${comfy.url}: dropped the websocket`,
    });
    // Left out: the next job goes to the other server without asking the failed one.
    const next = await pool.acquire(never());
    expect(next.client.url).toBe(other.url);
    next.release();

    // Checked again after 150 ms: still down, so the pause doubles. (Read until the check has
    // run: the pool announces no check.)
    await expect
      .poll(async () => (await pool.health()).servers?.[0]?.lastError, { interval: 20 })
      .toMatch(/GET \/prompt failed/);
    health = await pool.health();
    expect(health.servers?.[0]?.state).toBe('down');
    const pause =
      Date.parse(health.servers?.[0]?.nextCheckAt ?? '') -
      Date.parse(health.servers?.[0]?.lastErrorAt ?? '');
    expect(pause).toBeGreaterThanOrEqual(299);

    await standIn({ port });
    await expect
      .poll(async () => (await pool.health()).servers?.[0]?.state, { interval: 20 })
      .toBe('up');
    health = await pool.health();
    expect(health.servers?.[0]).toMatchObject({ state: 'up', nextCheckAt: null });
    pool.close();
  });

  it('when the servers in use fail, one left out is asked before the job fails', async () => {
    const left = await standIn();
    const used = await standIn();
    const pool = new ServerPool([new ComfyClient(left.url), new ComfyClient(used.url)], {
      retryAfterMs: 60_000,
    });
    const lease = await pool.acquire(never());
    expect(lease.client.url).toBe(left.url);
    lease.fail(new ComfyServerError(left.url, 'dropped the websocket'));
    lease.release();
    // The left-out server is fine again, but its pause has a minute to run; the other one dies.
    await used.crash();
    const next = await pool.acquire(never());
    expect(next.client.url).toBe(left.url);
    next.release();
    pool.close();
  });

  it('health is not ok when every server is down', async () => {
    const comfy = await standIn();
    const url = comfy.url;
    await comfy.crash();
    const pool = new ServerPool([new ComfyClient(url)]);
    const health = await pool.health();
    expect(health.ok).toBe(false);
    expect(health.servers?.[0]).toMatchObject({ url, state: 'down', activeJobs: 0 });
    pool.close();
  });
});

describe('ComfyUI client', () => {
  it('sends credentials in the URL as basic authentication, and never shows them', async () => {
    const client = new ComfyClient('https://user:secret@gpu.example.com:8443/comfy/');
    expect(client.displayUrl).toBe('https://gpu.example.com:8443/comfy');

    const seen: (string | undefined)[] = [];
    const proxy = http.createServer((req, res) => {
      seen.push(`${req.url} ${req.headers.authorization}`);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ exec_info: { queue_remaining: 3 } }));
    });
    proxy.listen(0, '127.0.0.1');
    await once(proxy, 'listening');
    const port = (proxy.address() as { port: number }).port;
    try {
      const behind = new ComfyClient(`http://tessera:p%40ss@127.0.0.1:${port}/comfy`);
      expect(await behind.queueRemaining()).toBe(3);
      expect(seen).toEqual([
        `/comfy/prompt Basic ${Buffer.from('tessera:p@ss').toString('base64')}`,
      ]);
      expect(behind.displayUrl).toBe(`http://127.0.0.1:${port}/comfy`);
    } finally {
      proxy.close();
    }
  });

  it('maps answers: node_errors, server errors, non-JSON, a missing history', async () => {
    const comfy = await standIn();
    const client = new ComfyClient(comfy.url);
    const refused = client.queuePrompt(preview(), 'me');
    await expect(refused).rejects.toBeInstanceOf(ComfyValidationError);
    await expect(refused).rejects.toThrow(
      'ComfyUI refused the workflow: node 12 (LoadImage): Custom validation failed for node: image - Invalid image file: reference.png',
    );
    expect(await client.history('nope')).toBeUndefined();

    const broken = http.createServer((req, res) => {
      if (req.url === '/prompt') {
        res.writeHead(502);
        res.end('bad gateway');
      } else {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end('<html>not comfy</html>');
      }
    });
    broken.listen(0, '127.0.0.1');
    await once(broken, 'listening');
    const url = `http://127.0.0.1:${(broken.address() as { port: number }).port}`;
    try {
      const wrong = new ComfyClient(url);
      await expect(wrong.queueRemaining()).rejects.toThrow(
        `ComfyUI server ${url}: GET /prompt answered 502`,
      );
      await expect(wrong.queue()).rejects.toThrow(
        `ComfyUI server ${url}: GET /queue answered no JSON`,
      );
    } finally {
      broken.close();
    }
  });
});
