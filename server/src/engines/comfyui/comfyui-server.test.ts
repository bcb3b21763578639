// The whole product with ENGINE=comfyui pointed at the stand-in: a preview over HTTP and an HD
// order over the broker, through the job runner, the services and the stores.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { buildHdCommand, type HdStatusMessage } from '@tessera/contract';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startComfyStandIn, type ComfyStandIn } from '../../testing/comfyui-stand-in/index.js';
import {
  bricksPng,
  postPreview,
  previewFields,
  signIn,
  waitForPreview,
} from '../../testing/http.js';
import type { TestClient } from '../../testing/test-client.js';
import { startTestServer, type TestServer } from '../../testing/test-server.js';
import { ComfyUIEngine } from './comfyui-engine.js';

let comfy: ComfyStandIn;
let engine: ComfyUIEngine;
let t: TestServer;
let base: string;
let cookie: string;

beforeAll(async () => {
  // Slow enough steps that the 100 ms status polls see the job in progress.
  comfy = await startComfyStandIn({ stepDelayMs: 60 });
  engine = new ComfyUIEngine({ urls: [comfy.url] });
  t = await startTestServer(['alice'], 'embedded', { engine });
  base = `http://127.0.0.1:${t.server.port}`;
  cookie = await signIn(base, 'alice');
}, 60_000);

afterAll(async () => {
  await t?.stop();
  engine?.close();
  await comfy?.close();
});

/** Resolves once `check` holds, checked again at each message the client receives. */
function untilReceived(client: TestClient, check: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    // Registered after the client's own listener: `received` already holds the message.
    const listener = () => {
      if (!check()) return;
      client.mqtt.off('message', listener);
      resolve();
    };
    client.mqtt.on('message', listener);
    listener();
  });
}

describe('ENGINE=comfyui, the whole server', () => {
  let ldImage = '';

  it('a preview: the form fills the prompt, progress reaches the job status, the LD image is stored', async () => {
    const fields = previewFields('alice', {
      latent_width: '1448',
      latent_height: '724',
      Kseed: '4242',
      ksampler_cfg: '6',
      ksampler_denoise: '0.75',
      ipadapter_weight: '1.1',
      style: '0.25',
      seamless: 'enable',
      circularVAE: 'enable',
    });
    const posted = await postPreview(base, cookie, {
      file: { name: 'bricks.png', data: await bricksPng() },
      fields,
    });
    expect(posted.status).toBe(202);
    const done = await waitForPreview(base, cookie, 60_000, () => t.nextJobChange('alice'));
    expect(done.status).toBe('finished');
    expect(done.percent).toBe(100);
    const inProgress = done.seen
      .filter((s) => s.startsWith('in_progress:'))
      .map((s) => Number(s.split(':')[1]));
    expect(inProgress.some((percent) => percent > 5 && percent < 95)).toBe(true);

    const prompt = comfy.prompts.at(-1)?.prompt ?? {};
    expect(prompt['585']?.inputs.text).toBe('weathered red brick wall');
    expect(prompt['716']?.inputs.text).toBe('blurry, text');
    expect(prompt['3']?.inputs).toMatchObject({ seed: 4242, cfg: 6, denoise: 0.75 });
    expect(prompt['600']?.inputs.weight).toBe(1.1);
    expect(prompt['601']?.inputs.weight).toBe(0.25);
    expect(prompt['5']?.inputs).toMatchObject({ width: 1448, height: 724 });
    expect(prompt['720']?.inputs.tiling).toBe('enable');
    expect(prompt['721']?.inputs.tiling).toBe('enable');

    ldImage = done.output_image ?? '';
    const served = await fetch(`${base}/api/images/ld/${ldImage}`, { headers: { cookie } });
    expect(served.status).toBe(200);
    const meta = await sharp(Buffer.from(await served.arrayBuffer())).metadata();
    expect([meta.width, meta.height]).toEqual([1448, 724]);
    const thumbnail = await fetch(`${base}/api/images/ld/thumbnail/${ldImage}`, {
      headers: { cookie },
    });
    expect(thumbnail.status).toBe(200);

    const client = await t.connect('alice');
    const item = await client.listedImage('ld', ldImage);
    expect(item?.metadata).toMatchObject({
      cliptextencode_585: 'weathered red brick wall',
      ksampler_cfg: 6,
      ksampler_denoise: 0.75,
      ipadapter_weight: 1.1,
      kseed: 4242,
      latent_width: 1448,
      latent_height: 724,
      seamless: true,
      engine: 'comfyui',
    });
  });

  // Ten seconds of sampler steps on an idle machine: room for a loaded one (no wait hangs on it).
  it('an HD order: the four factors reach the prompt, status messages rise, the HD image is stored', async () => {
    expect(ldImage).not.toBe('');
    const client = await t.connect('alice');
    const command = buildHdCommand({
      id: randomUUID(),
      user: 'alice',
      image: ldImage,
      metadata: { kseed: 4242 },
      sizeLabel: '30x60',
    });
    await client.send(client.commandTopic('generate-image'), command);
    const statuses = () =>
      client.received
        .filter((m) => m.topic === 'query/status-generate-image/user/alice')
        .map((m) => m.body as unknown as HdStatusMessage)
        .filter((s) => s.id === command.id);
    await untilReceived(client, () =>
      statuses().some((s) => s.status === 'finished' || s.status === 'error'),
    );
    const last = statuses().at(-1);
    expect(last?.status).toBe('finished');
    expect(
      statuses().some((s) => s.status === 'in_progress' && s.percent > 0 && s.percent < 100),
    ).toBe(true);

    const prompt = comfy.prompts.at(-1)?.prompt ?? {};
    expect(prompt['711']?.inputs.rescale_factor).toBe(1.74);
    expect(prompt['707']?.inputs.scale_by).toBe(1);
    expect(prompt['701']?.inputs.rescale_factor).toBe(1.5);
    expect(prompt['692']?.inputs.scale_by).toBe(1.9);
    expect(prompt['3']?.inputs.seed).toBe(4242);
    expect(prompt['712']?.inputs).toMatchObject({ width: 1448, height: 724 });
    expect(prompt['720']?.inputs.tiling).toBe('enable');

    const file = path.join(t.dataDir, 'files', 'alice', 'hd', last?.output_image ?? '');
    expect(fs.existsSync(file)).toBe(true);
    const meta = await sharp(file).metadata();
    // 1448 x 724 x 1.5 x 1.9, rounded (contract hdTargetSize).
    expect([meta.width, meta.height]).toEqual([4127, 2063]);
  }, 60_000);
});

describe('GET /api/health with ENGINE=comfyui', () => {
  it('reports each ComfyUI server, and the site as degraded when none can take work', async () => {
    const up = (await (await fetch(`${base}/api/health`)).json()) as {
      status: string;
      engine: { ok: boolean; servers: { url: string; state: string }[] };
    };
    expect(up.status).toBe('ok');
    expect(up.engine.ok).toBe(true);
    expect(up.engine.servers.map((s) => [s.url, s.state])).toEqual([[comfy.url, 'up']]);

    // A second server whose only ComfyUI has gone away: its health check fails.
    const gone = await startComfyStandIn();
    const goneUrl = gone.url;
    await gone.close();
    const lonely = new ComfyUIEngine({ urls: [goneUrl] });
    const down = await startTestServer(['bob'], 'embedded', { engine: lonely });
    try {
      const res = await fetch(`http://127.0.0.1:${down.server.port}/api/health`);
      const body = (await res.json()) as typeof up;
      expect(body.status).toBe('degraded');
      expect(body.engine.ok).toBe(false);
      expect(body.engine.servers[0]).toMatchObject({ url: goneUrl, state: 'down' });
    } finally {
      await down.stop();
      lonely.close();
    }
  });
});

describe('GET /api/health with a ComfyUI whose prompts fail while running (issue 23, part 12)', () => {
  it('says failing, with the last error, instead of up', async () => {
    // A broken model file: /prompt answers, every prompt fails at the checkpoint loader.
    const broken = await startComfyStandIn({ failAtNode: '4' });
    const failingEngine = new ComfyUIEngine({
      urls: [broken.url],
      pool: { failingAfter: 1 },
    });
    const server = await startTestServer(['carol'], 'embedded', { engine: failingEngine });
    try {
      const url = `http://127.0.0.1:${server.server.port}`;
      const carol = await signIn(url, 'carol');
      const posted = await postPreview(url, carol, {
        file: { name: 'bricks.png', data: await bricksPng(128, 128) },
        fields: previewFields('carol'),
      });
      expect(posted.status).toBe(202);
      expect(
        (await waitForPreview(url, carol, 60_000, () => server.nextJobChange('carol'))).status,
      ).toBe('error');
      // The runner's retry was not sent to the failing server.
      expect(broken.prompts).toHaveLength(1);
      const res = await fetch(`${url}/api/health`);
      const body = (await res.json()) as {
        status: string;
        engine: { ok: boolean; servers: Record<string, unknown>[] };
      };
      expect(body.status).toBe('degraded');
      expect(body.engine.ok).toBe(false);
      expect(body.engine.servers[0]).toMatchObject({
        url: broken.url,
        state: 'failing',
        lastError:
          'ComfyUI failed at node 4 (CheckpointLoaderSimple): RuntimeError: stand-in failure at node 4',
      });
    } finally {
      await server.stop();
      failingEngine.close();
      await broken.close();
    }
  });
});
