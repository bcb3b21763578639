import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { once } from 'node:events';
import { hdFactorsFor } from '@tessera/contract';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { comfyEngines, never } from '../../testing/comfyui-engines.js';
import { bricksPng } from '../../testing/http.js';
import type { ComfyStandIn } from '../../testing/comfyui-stand-in/index.js';
import type { GenerateParams, RemotePrompt, UpscaleParams } from '../engine.js';
import { ComfyExecutionError, ComfyServerError, ComfyValidationError } from './errors.js';

const comfyui = comfyEngines('tessera-comfy-', () => bricksPng(256, 256));
const { standIn, engine } = comfyui;
let ldPath: string;

function previewParams(overrides: Partial<GenerateParams> = {}): GenerateParams {
  return comfyui.previewParams({ width: 1448, height: 724, seamless: true, ...overrides });
}

function hdParams(overrides: Partial<UpscaleParams> = {}): UpscaleParams {
  const factors = hdFactorsFor('30x60');
  if (!factors) throw new Error('no factors');
  return {
    sourcePath: ldPath,
    outputPath: path.join(comfyui.dir, `hd-${Math.random().toString(36).slice(2)}.png`),
    encoding: 'png',
    // 256 x 128 x 1.5 x 1.9, as contract hdTargetSize rounds it.
    width: 730,
    height: 365,
    factors,
    seed: 987654,
    seamless: false,
    ...overrides,
  };
}

/** Files in the temp folder other than the inputs: no partial or download leftovers. */
function leftovers(): string[] {
  return fs
    .readdirSync(comfyui.dir)
    .filter((name) => name !== 'reference.png' && name !== 'ld.png')
    .filter((name) => !/^(preview|hd)-[a-z0-9]+\.(png|jpg)$/.test(name));
}

beforeAll(async () => {
  ldPath = path.join(comfyui.dir, 'ld.png');
  fs.writeFileSync(ldPath, await bricksPng(256, 128));
});

describe('ComfyUI engine: preview', () => {
  it('uploads the reference, fills the preview template, follows progress and writes the PNG', async () => {
    const comfy = await standIn();
    const percents: number[] = [];
    const params = previewParams();
    const result = await engine([comfy.url]).generate(params, (p) => percents.push(p), never());

    expect(result).toEqual({ width: 1448, height: 724 });
    const written = await sharp(params.outputPath).metadata();
    expect([written.format, written.width, written.height]).toEqual(['png', 1448, 724]);
    // ComfyUI's SaveImage embeds the prompt in a text chunk; Tessera's image does not carry it.
    const [saved] = fs.readdirSync(path.join(comfy.folders.output, 'tessera'));
    const comfyImage = await sharp(
      path.join(comfy.folders.output, 'tessera', saved ?? ''),
    ).metadata();
    expect(comfyImage.comments?.map((c) => c.keyword)).toEqual(['prompt']);
    expect(written.comments ?? []).toEqual([]);

    expect(comfy.uploads).toHaveLength(1);
    const upload = comfy.uploads[0];
    expect(upload?.subfolder).toBe('tessera');
    expect(upload?.type).toBe('temp');
    // The server's first upload slot (upload-slots.ts).
    expect(upload?.name).toBe('slot-0.png');

    expect(comfy.prompts).toHaveLength(1);
    const received = comfy.prompts[0];
    expect(received?.client_id).toMatch(/^[0-9a-f-]{36}$/);
    const prompt = received?.prompt ?? {};
    expect(prompt['12']).toMatchObject({
      class_type: 'LoadImage',
      inputs: { image: `tessera/${upload?.name} [temp]` },
    });
    expect(prompt['585']).toMatchObject({
      class_type: 'CLIPTextEncode',
      inputs: { text: 'weathered red brick wall', clip: ['4', 1] },
    });
    expect(prompt['716']).toMatchObject({
      class_type: 'CLIPTextEncode',
      inputs: { text: 'blurry, text' },
    });
    expect(prompt['3']).toMatchObject({
      class_type: 'KSampler',
      inputs: { seed: 1234, cfg: 7.5, denoise: 0.8, positive: ['585', 0], negative: ['716', 0] },
    });
    expect(prompt['600']).toMatchObject({
      class_type: 'IPAdapterAdvanced',
      inputs: { weight: 1.2, image: ['12', 0] },
    });
    expect(prompt['601']).toMatchObject({
      class_type: 'IPAdapterAdvanced',
      inputs: { weight: 0.3, weight_type: 'style transfer' },
    });
    expect(prompt['5']).toMatchObject({ inputs: { width: 1448, height: 724 } });
    expect(prompt['720']).toMatchObject({
      class_type: 'SeamlessTile',
      inputs: { tiling: 'enable' },
    });
    expect(prompt['721']).toMatchObject({
      class_type: 'CircularVAEDecode',
      inputs: { tiling: 'enable' },
    });

    // Rising, from the upload through the sampler's steps to the file in place.
    expect(percents[0]).toBe(0);
    expect(percents.at(-1)).toBe(100);
    for (let i = 1; i < percents.length; i++) {
      expect(percents[i]).toBeGreaterThan(percents[i - 1] ?? -1);
    }
    expect(percents.filter((p) => p > 5 && p < 95).length).toBeGreaterThanOrEqual(3);
    expect(leftovers()).toEqual([]);
  });

  it('seamless off disables both tiling switches; the mask cuts the reference to its opaque region', async () => {
    const comfy = await standIn();
    const masked = path.join(comfyui.dir, 'masked-reference.png');
    // A 100 x 80 reference, opaque only in a 40 x 30 block.
    const alpha = Buffer.alloc(100 * 80 * 4);
    for (let y = 0; y < 80; y++) {
      for (let x = 0; x < 100; x++) {
        const i = (y * 100 + x) * 4;
        alpha[i] = 200;
        alpha[i + 1] = 40;
        alpha[i + 2] = 40;
        alpha[i + 3] = x >= 10 && x < 50 && y >= 20 && y < 50 ? 255 : 0;
      }
    }
    fs.writeFileSync(
      masked,
      await sharp(alpha, { raw: { width: 100, height: 80, channels: 4 } })
        .png()
        .toBuffer(),
    );
    const params = previewParams({ referencePath: masked, seamless: false, mask: true });
    await engine([comfy.url]).generate(params, () => undefined, never());
    fs.rmSync(masked);
    const prompt = comfy.prompts[0]?.prompt ?? {};
    expect(prompt['720']?.inputs.tiling).toBe('disable');
    expect(prompt['721']?.inputs.tiling).toBe('disable');
    // The stand-in sizes the LoadImage output from the uploaded file: 40 x 30 after the mask.
    const view = await fetch(
      `${comfy.url}/view?filename=${comfy.uploads[0]?.name}&subfolder=tessera&type=temp`,
    );
    const uploaded = await sharp(Buffer.from(await view.arrayBuffer())).metadata();
    expect([uploaded.width, uploaded.height]).toEqual([40, 30]);
  });
});

describe('ComfyUI engine: HD', () => {
  it('uploads the LD image, fills the four factors and the seed, and writes the exact size', async () => {
    const comfy = await standIn();
    const percents: number[] = [];
    const params = hdParams();
    const result = await engine([comfy.url]).upscale(params, (p) => percents.push(p), never());

    // The detail the template generates: CR Upscale Image 701 at 1.5 of the 256 px LD image,
    // 384 px; ImageScaleBy 692 enlarges it to 730 (issue 26, honest detail).
    expect(result).toEqual({ width: 730, height: 365, detailWidth: 384 });
    const written = await sharp(params.outputPath).metadata();
    expect([written.format, written.width, written.height]).toEqual(['png', 730, 365]);

    const prompt = comfy.prompts[0]?.prompt ?? {};
    expect(prompt['10']).toMatchObject({
      class_type: 'LoadImage',
      inputs: { image: `tessera/${comfy.uploads[0]?.name} [temp]` },
    });
    expect(prompt['711']).toMatchObject({
      class_type: 'CR Upscale Image',
      inputs: { rescale_factor: 1.74, image: ['10', 0] },
    });
    expect(prompt['707']).toMatchObject({
      class_type: 'LatentUpscaleBy',
      inputs: { scale_by: 1 },
    });
    expect(prompt['701']).toMatchObject({
      class_type: 'CR Upscale Image',
      inputs: { rescale_factor: 1.5 },
    });
    expect(prompt['692']).toMatchObject({
      class_type: 'ImageScaleBy',
      inputs: { scale_by: 1.9, image: ['701', 0] },
    });
    expect(prompt['3']).toMatchObject({ class_type: 'KSampler', inputs: { seed: 987654 } });
    expect(prompt['712']).toMatchObject({ inputs: { width: 256, height: 128 } });
    expect(prompt['720']?.inputs.tiling).toBe('disable');
    expect(prompt['721']?.inputs.tiling).toBe('disable');
    expect(percents.at(-1)).toBe(100);
    expect(percents.some((p) => p > 5 && p < 95)).toBe(true);
  });

  it('writes JPEG when the job asks for it (.jpg), and tiles when the LD image is seamless', async () => {
    const comfy = await standIn();
    const params = hdParams({
      outputPath: path.join(comfyui.dir, 'hd-large.jpg'),
      encoding: 'jpeg',
      seamless: true,
    });
    await engine([comfy.url]).upscale(params, () => undefined, never());
    const written = await sharp(params.outputPath).metadata();
    expect([written.format, written.width, written.height]).toEqual(['jpeg', 730, 365]);
    const prompt = comfy.prompts[0]?.prompt ?? {};
    expect(prompt['720']?.inputs.tiling).toBe('enable');
    expect(prompt['721']?.inputs.tiling).toBe('enable');
    fs.rmSync(params.outputPath);
  });
});

describe('ComfyUI engine: failures', () => {
  it('a validation error (node_errors) fails the job naming the node and the reason', async () => {
    const comfy = await standIn();
    const made = engine([comfy.url]);
    // Out of KSampler's range: the value Tessera fills is refused.
    const params = previewParams({ imaginationWeight: 150 });
    const failure = made.generate(params, () => undefined, never());
    await expect(failure).rejects.toBeInstanceOf(ComfyValidationError);
    await expect(failure).rejects.toThrow(
      'ComfyUI refused the workflow: node 3 (KSampler): Value 150 bigger than max of 100: cfg',
    );
    expect(comfy.refused).toHaveLength(1);
    expect(comfy.prompts).toHaveLength(0);
    expect(fs.existsSync(params.outputPath)).toBe(false);
    // The server answered: it stays in.
    const health = await made.health();
    expect(health.servers?.[0]?.state).toBe('up');
  });

  it('an execution_error fails the job with the node and the exception; the server stays up', async () => {
    const comfy = await standIn({ failAtNode: '3' });
    const made = engine([comfy.url]);
    const failure = made.generate(previewParams(), () => undefined, never());
    await expect(failure).rejects.toBeInstanceOf(ComfyExecutionError);
    // ComfyUI ends exception_message with a newline ("{ex}\n{tips}"): not part of the job's error.
    await expect(failure).rejects.toThrow(
      /^ComfyUI failed at node 3 \(KSampler\): RuntimeError: stand-in failure at node 3$/,
    );
    expect((await made.health()).servers?.[0]?.state).toBe('up');
  });

  it('without an outage window, a server going away mid-job fails the job, is left out, and the retry runs on another server', async () => {
    const first = await standIn({ stepDelayMs: 20 });
    const second = await standIn();
    // (Within COMFYUI_OUTAGE_WINDOW_MS the job itself moves on instead: farm.test.ts.)
    const made = engine([first.url, second.url], {
      pool: { retryAfterMs: 60_000 },
      prompt: { reconnectMs: 300 },
      outageWindowMs: 0,
    });
    first.events.once('progress', () => void first.crash());
    const params = previewParams();
    const failure = made.generate(params, () => undefined, never());
    await expect(failure).rejects.toBeInstanceOf(ComfyServerError);
    await expect(failure).rejects.toThrow(`ComfyUI server ${first.url}: dropped the websocket`);
    expect(fs.existsSync(params.outputPath)).toBe(false);

    const health = await made.health();
    expect(health.ok).toBe(true);
    expect(health.servers?.map((s) => [s.url, s.state])).toEqual([
      [first.url, 'down'],
      [second.url, 'up'],
    ]);
    expect(health.servers?.[0]?.lastError).toMatch(/dropped the websocket/);
    expect(health.servers?.[0]?.nextCheckAt).not.toBeNull();

    // The job runner's retry: the failed server is left out.
    const retry = previewParams();
    await made.generate(retry, () => undefined, never());
    expect(second.prompts).toHaveLength(1);
    expect(fs.existsSync(retry.outputPath)).toBe(true);
  });

  it('a server that does not answer is left out once its probe times out', async () => {
    const sockets = new Set<net.Socket>();
    const silent = net.createServer((socket) => sockets.add(socket));
    silent.listen(0, '127.0.0.1');
    await once(silent, 'listening');
    const silentUrl = `http://127.0.0.1:${(silent.address() as net.AddressInfo).port}`;
    try {
      const comfy = await standIn();
      const made = engine([silentUrl, comfy.url], {
        pool: { probeTimeoutMs: 300, retryAfterMs: 60_000 },
        client: { requestTimeoutMs: 300 },
      });
      await made.generate(previewParams(), () => undefined, never());
      expect(comfy.prompts).toHaveLength(1);
      const health = await made.health();
      expect(health.servers?.[0]).toMatchObject({ url: silentUrl, state: 'down' });
      expect(health.servers?.[0]?.lastError).toBe(
        `ComfyUI server ${silentUrl}: GET /prompt did not answer within 0.3 s`,
      );
    } finally {
      for (const socket of sockets) socket.destroy();
      silent.close();
    }
  });

  it('no server answering fails the job with every server named (past the outage window)', async () => {
    const comfy = await standIn();
    const url = comfy.url;
    await comfy.crash();
    await expect(
      engine([url], { outageWindowMs: 0 }).generate(previewParams(), () => undefined, never()),
    ).rejects.toThrow(
      `No ComfyUI server answers: ${url} (ComfyUI server ${url}: GET /prompt failed`,
    );
  });
});

describe('ComfyUI engine: cancelling', () => {
  it('a job not yet running is deleted from the queue', async () => {
    const comfy = await standIn({ paused: true });
    const controller = new AbortController();
    // The engine tells the job once it knows the queued prompt's id: from then on the abort must
    // take the prompt back off the server's queue.
    let noted!: (prompt: RemotePrompt) => void;
    const queued = new Promise<RemotePrompt>((resolve) => (noted = resolve));
    const params = previewParams({ remote: { queued: async (prompt) => noted(prompt) } });
    const job = engine([comfy.url]).generate(params, () => undefined, controller.signal);
    const { promptId } = await queued;
    controller.abort(new DOMException('stopped', 'AbortError'));
    await expect(job).rejects.toThrow('stopped');
    expect(comfy.requests).toContainEqual({
      method: 'POST',
      path: '/queue',
      body: { delete: [promptId] },
    });
    expect(comfy.requests.some((r) => r.path === '/interrupt')).toBe(false);
    expect(comfy.queueRemaining()).toBe(0);
    expect(fs.existsSync(params.outputPath)).toBe(false);
  });

  it('a running job is interrupted', async () => {
    const comfy = await standIn({ stepDelayMs: 50 });
    const controller = new AbortController();
    const job = engine([comfy.url]).generate(previewParams(), () => undefined, controller.signal);
    const [step] = (await once(comfy.events, 'progress')) as [{ prompt_id: string }];
    const done = once(comfy.events, 'done');
    controller.abort(new DOMException('stopped', 'AbortError'));
    await expect(job).rejects.toThrow('stopped');
    expect(comfy.requests).toContainEqual({
      method: 'POST',
      path: '/interrupt',
      body: { prompt_id: step.prompt_id },
    });
    const [end] = (await done) as [{ status: string }];
    expect(end.status).toBe('interrupted');
  });
});

describe('ComfyUI engine: many servers', () => {
  it('two servers share a batch, the least busy taking the next job', async () => {
    const first = await standIn({ stepDelayMs: 10 });
    const second = await standIn({ stepDelayMs: 10 });
    const made = engine([first.url, second.url]);
    const batch = [1, 2, 3, 4].map((seed) => previewParams({ seed }));
    // Servers executing a prompt at each moment.
    const busy = new Set<ComfyStandIn>();
    let together = 0;
    for (const comfy of [first, second]) {
      comfy.events.on('executing', () => {
        busy.add(comfy);
        together = Math.max(together, busy.size);
      });
      comfy.events.on('done', () => busy.delete(comfy));
    }
    const results = await Promise.all(
      batch.map((params) => made.generate(params, () => undefined, never())),
    );
    expect(results).toEqual(batch.map(() => ({ width: 1448, height: 724 })));
    expect(first.prompts).toHaveLength(2);
    expect(second.prompts).toHaveLength(2);
    expect(together).toBe(2);
    const seeds = [...first.prompts, ...second.prompts].map((p) => p.prompt['3']?.inputs.seed);
    expect(seeds.sort()).toEqual([1, 2, 3, 4]);
    for (const params of batch) expect(fs.existsSync(params.outputPath)).toBe(true);

    const health = await made.health();
    expect(health).toMatchObject({
      ok: true,
      servers: [
        { url: first.url, state: 'up', queueRemaining: 0, activeJobs: 0, lastError: null },
        { url: second.url, state: 'up', queueRemaining: 0, activeJobs: 0, lastError: null },
      ],
    });
  });

  it('a server that failed is checked again after its pause and takes jobs again', async () => {
    const comfy = await standIn();
    const port = comfy.port;
    await comfy.crash();
    const made = engine([`http://127.0.0.1:${port}`], {
      pool: { retryAfterMs: 100 },
      outageWindowMs: 0,
    });
    await expect(made.generate(previewParams(), () => undefined, never())).rejects.toThrow(
      /No ComfyUI server answers/,
    );
    expect((await made.health()).servers?.[0]?.state).not.toBe('up');
    const back = await standIn({ port });
    // Read until the pool's next check (100 ms on) finds it: the pool announces no check.
    await expect
      .poll(async () => (await made.health()).servers?.[0]?.state, { interval: 20 })
      .toBe('up');
    await made.generate(previewParams(), () => undefined, never());
    expect(back.prompts).toHaveLength(1);
  });
});
