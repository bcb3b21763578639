import { API_ROUTES, buildHdCommand } from '@tessera/contract';
import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bricksPng, postPreview, previewFields, signIn, waitForPreview } from '../testing/http.js';
import { ComfyUIEngine } from '../engines/comfyui/comfyui-engine.js';
import { startComfyStandIn } from '../testing/comfyui-stand-in/index.js';
import { parsePrometheusText, sampleValue, type Sample } from '../testing/prometheus.js';
import { mosquittoAvailable } from '../testing/mosquitto.js';
import { startTestServer, type TestServer } from '../testing/test-server.js';

// /metrics as Prometheus scrapes it, after real work: sign-ins, MQTT commands through the
// embedded broker, a preview made by the builtin engine, HD orders held in a paused queue.

const TOKEN = 'metrics-token-for-the-tests-0123456789';
let t: TestServer;
let base: string;

beforeAll(async () => {
  t = await startTestServer(['alice'], 'embedded', {}, {}, { metricsToken: TOKEN });
  base = t.server.url;
}, 60_000);
afterAll(async () => {
  await t?.stop();
});

async function scrape(url = `${base}/metrics`, token: string | undefined = TOKEN) {
  const res = await fetch(url, token ? { headers: { authorization: `Bearer ${token}` } } : {});
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return parsePrometheusText(await res.text());
}

const httpCount = (samples: Sample[], method: string, route: string, status: string) =>
  sampleValue(samples, 'tessera_http_request_duration_seconds_count', { method, route, status }) ??
  0;
const commands = (samples: Sample[], action: string, outcome: string) =>
  sampleValue(samples, 'tessera_mqtt_commands_total', { action, outcome }) ?? 0;

describe('GET /metrics with METRICS_TOKEN', () => {
  it('answers 401 without the bearer token, or with another, and names what is missing', async () => {
    const none = await fetch(`${base}/metrics`);
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(await none.json()).toEqual({
      error: 'The metrics need the bearer token METRICS_TOKEN sets',
    });
    for (const header of [`Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(1)}`, TOKEN, 'Bearer ']) {
      expect((await fetch(`${base}/metrics`, { headers: { authorization: header } })).status).toBe(
        401,
      );
    }
  });

  it('counts requests by route pattern and status, MQTT commands, connections and jobs after real work', async () => {
    const before = await scrape();
    const cookie = await signIn(base, 'alice');
    const wrong = await fetch(`${base}${API_ROUTES.login}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'alice', password: 'not-hers' }),
    });
    expect(wrong.status).toBe(401);

    // A preview, made by the engine: its run is timed by kind and engine.
    const posted = await postPreview(base, cookie, {
      file: { name: 'bricks.png', data: await bricksPng(128, 128) },
      fields: previewFields('alice'),
    });
    expect(posted.status).toBe(202);
    const done = await waitForPreview(base, cookie, 60_000, () => t.nextJobChange('alice'));
    expect(done.status).toBe('finished');
    const served = await fetch(`${base}/api/images/ld/${done.output_image ?? ''}`, {
      headers: { cookie },
    });
    expect(served.status).toBe(200);
    expect((await served.arrayBuffer()).byteLength).toBeGreaterThan(0);

    // MQTT commands: one answered, one refused (a tag without a name), one unknown action.
    const client = await t.connect('alice');
    expect((await client.call('list-tag', { page: 1, size: 10 })).success).toBe(true);
    expect((await client.call('create-tag', { name: '' })).success).toBe(false);
    await client.mqtt.subscribeAsync('query/make-coffee/user/alice');
    expect((await client.request('make-coffee')).body.success).toBe(false);

    // HD orders into a paused queue stay queued: the gauge reads the queue itself.
    for (const image of ['one.png', 'two.png']) {
      const png = await sharp({
        create: { width: 1024, height: 1024, channels: 3, background: '#7a5230' },
      })
        .png()
        .toBuffer();
      await t.files.write('alice', 'ld', image, png);
    }
    expect((await client.call('refresh-low-definition')).success).toBe(true);
    const paused = await fetch(`${base}${API_ROUTES.pauseHdQueue}`, {
      method: 'POST',
      headers: { cookie },
    });
    expect(paused.status).toBe(200);
    for (const image of ['one.png', 'two.png']) {
      await client.send(
        client.commandTopic('generate-image'),
        buildHdCommand({
          id: randomUUID(),
          user: 'alice',
          image,
          metadata: {},
          sizeLabel: '30x30',
        }),
      );
    }
    // Scraped again at each change of alice's jobs (the gauge counts the queue's rows at a scrape).
    await t.waitForJobs(
      'alice',
      'two queued HD jobs on /metrics',
      async () =>
        sampleValue(await scrape(), 'tessera_jobs', { kind: 'hd', state: 'queued' }) === 2 ||
        undefined,
      10_000,
    );

    const after = await scrape();
    // By route pattern, never the raw URL: the image's name is not a label.
    expect(httpCount(after, 'POST', API_ROUTES.login, '200')).toBe(
      httpCount(before, 'POST', API_ROUTES.login, '200') + 1,
    );
    expect(httpCount(after, 'POST', API_ROUTES.login, '401')).toBe(
      httpCount(before, 'POST', API_ROUTES.login, '401') + 1,
    );
    expect(httpCount(after, 'POST', API_ROUTES.generatePreview, '202')).toBe(1);
    const imageRoutes = after.filter(
      (s) =>
        s.name === 'tessera_http_request_duration_seconds_count' &&
        s.labels.route?.startsWith('/api/images/'),
    );
    expect(imageRoutes.map((s) => s.labels.route)).not.toContain(
      `/api/images/ld/${done.output_image ?? ''}`,
    );
    expect(imageRoutes.some((s) => s.labels.route?.includes(':') && s.value >= 1)).toBe(true);
    expect(
      sampleValue(after, 'tessera_http_request_duration_seconds_bucket', {
        route: API_ROUTES.login,
        status: '200',
        le: '+Inf',
      }),
    ).toBeGreaterThanOrEqual(1);

    expect(commands(after, 'list-tag', 'ok')).toBe(1);
    expect(commands(after, 'create-tag', 'refused')).toBe(1);
    expect(commands(after, 'unknown', 'refused')).toBe(1);
    expect(commands(after, 'generate-image', 'ok')).toBe(2);
    expect(commands(after, 'refresh-low-definition', 'ok')).toBe(1);
    // Alice's connection and the messaging service's own.
    expect(sampleValue(after, 'tessera_mqtt_connections')).toBe(2);

    expect(
      sampleValue(after, 'tessera_job_duration_seconds_count', {
        kind: 'preview',
        engine: 'builtin',
        outcome: 'finished',
      }),
    ).toBe(1);
    expect(
      sampleValue(after, 'tessera_job_duration_seconds_sum', { kind: 'preview' }),
    ).toBeGreaterThan(0);
    expect(sampleValue(after, 'tessera_jobs', { kind: 'preview', state: 'queued' })).toBe(0);
    expect(sampleValue(after, 'tessera_jobs', { kind: 'hd', state: 'running' })).toBe(0);
    // The builtin engine has no image servers to tell of.
    expect(after.some((s) => s.name === 'tessera_comfyui_servers')).toBe(false);

    // Node's own: event-loop lag and memory.
    expect(sampleValue(after, 'nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
    expect(sampleValue(after, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(sampleValue(after, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
  }, 90_000);
});

describe('GET /metrics without METRICS_TOKEN', () => {
  it('answers 404 on the main port, and serves without a token on METRICS_PORT', async () => {
    const plain = await startTestServer([], 'embedded');
    try {
      const res = await fetch(`${plain.server.url}/metrics`);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ error: 'Not found' });
      expect(plain.server.metricsUrl).toBeUndefined();
    } finally {
      await plain.stop();
    }

    const open = await startTestServer([], 'embedded', {}, {}, { metricsPort: 0 });
    try {
      expect((await fetch(`${open.server.url}/metrics`)).status).toBe(404);
      const samples = await scrape(`${open.server.metricsUrl ?? ''}/metrics`, undefined);
      expect(sampleValue(samples, 'tessera_jobs', { kind: 'preview', state: 'queued' })).toBe(0);
      const ready = await fetch(`${open.server.metricsUrl ?? ''}${API_ROUTES.ready}`);
      expect(await ready.json()).toEqual({ status: 'ready' });
    } finally {
      await open.stop();
    }
  }, 60_000);
});

describe('GET /metrics with ComfyUI servers (ENGINE=comfyui)', () => {
  it('counts the servers by state and times job runs under the comfyui engine', async () => {
    const comfy = await startComfyStandIn();
    const gone = await startComfyStandIn();
    const goneUrl = gone.url;
    await gone.close();
    const engine = new ComfyUIEngine({ urls: [comfy.url, goneUrl] });
    const farm = await startTestServer(
      ['alice'],
      'embedded',
      { engine },
      {},
      { metricsToken: TOKEN },
    );
    try {
      const servers = async (state: string) =>
        sampleValue(await scrape(`${farm.server.url}/metrics`), 'tessera_comfyui_servers', {
          state,
        });
      // The start-up check finds one server answering and the other gone.
      await expect.poll(() => servers('down'), { timeout: 20_000 }).toBe(1);
      expect(await servers('up')).toBe(1);
      expect(await servers('incomplete')).toBe(0);

      const cookie = await signIn(farm.server.url, 'alice');
      const posted = await postPreview(farm.server.url, cookie, {
        file: { name: 'bricks.png', data: await bricksPng(128, 128) },
        fields: previewFields('alice'),
      });
      expect(posted.status).toBe(202);
      expect(
        (await waitForPreview(farm.server.url, cookie, 60_000, () => farm.nextJobChange('alice')))
          .status,
      ).toBe('finished');
      const samples = await scrape(`${farm.server.url}/metrics`);
      expect(
        sampleValue(samples, 'tessera_job_duration_seconds_count', {
          kind: 'preview',
          engine: 'comfyui',
          outcome: 'finished',
        }),
      ).toBe(1);
    } finally {
      await farm.stop();
      engine.close();
      await comfy.close();
    }
  }, 90_000);
});

describe.skipIf(!mosquittoAvailable)('GET /metrics on Mosquitto (MQTT_URL)', () => {
  it("reports the broker's own count of connections, from its $SYS statistics", async () => {
    const t = await startTestServer(['alice'], 'mosquitto', {}, {}, { metricsToken: TOKEN });
    try {
      const url = `${t.server.url}/metrics`;
      const connections = async () => sampleValue(await scrape(url), 'tessera_mqtt_connections');
      // Mosquitto publishes the count every sys_interval (10 s): the poll waits for a report.
      // The server's own connections: commands, and the logins it keeps in the broker.
      await expect.poll(connections, { timeout: 30_000, interval: 250 }).toBeGreaterThan(0);
      const own = (await connections()) ?? 0;
      await t.connect('alice');
      await t.connect('alice');
      await expect.poll(connections, { timeout: 30_000, interval: 250 }).toBe(own + 2);
    } finally {
      await t.stop();
    }
  }, 90_000);
});
