import { once } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { DEFAULT_WORKFLOWS_DIR } from '../../engines/comfyui/workflows.js';
import type { ComfyWorkflow } from '../../engines/comfyui/api-types.js';
import { startComfyStandIn, type ComfyStandIn } from './index.js';

let comfy: ComfyStandIn | undefined;
afterEach(async () => {
  await comfy?.close();
  comfy = undefined;
});

const template = (name: 'preview' | 'hd'): ComfyWorkflow =>
  JSON.parse(
    fs.readFileSync(path.join(DEFAULT_WORKFLOWS_DIR, `${name}.json`), 'utf8'),
  ) as ComfyWorkflow;

async function upload(url: string, name: string, png: Buffer, subfolder = '') {
  const form = new FormData();
  form.append('image', new Blob([png], { type: 'image/png' }), name);
  form.append('subfolder', subfolder);
  form.append('overwrite', 'true');
  const res = await fetch(`${url}/upload/image`, { method: 'POST', body: form });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

interface Frame {
  json?: { type: string; data: Record<string, unknown> };
  binary?: Buffer;
}

/** A /ws client recording every frame. */
async function listen(url: string, clientId: string) {
  const frames: Frame[] = [];
  const ws = new WebSocket(`${url.replace('http', 'ws')}/ws?clientId=${clientId}`);
  ws.on('message', (data: Buffer, isBinary) => {
    if (isBinary) frames.push({ binary: data });
    else frames.push({ json: JSON.parse(data.toString()) as Frame['json'] });
  });
  await new Promise((resolve) => ws.once('open', resolve));
  return { ws, frames };
}

async function until(check: () => boolean, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('ComfyUI stand-in', () => {
  it('runs a prompt with the real message sequence, history and /view', async () => {
    comfy = await startComfyStandIn({ previews: true });
    const png = await sharp({
      create: { width: 64, height: 48, channels: 3, background: '#334455' },
    })
      .png()
      .toBuffer();
    const uploaded = await upload(comfy.url, 'ref.png', png, 'tests');
    expect(uploaded).toEqual({
      status: 200,
      body: { name: 'ref.png', subfolder: 'tests', type: 'input' },
    });

    const { ws, frames } = await listen(comfy.url, 'client-1');
    await until(() => frames.length > 0);
    expect(frames[0]?.json).toEqual({
      type: 'status',
      data: { status: { exec_info: { queue_remaining: 0 } }, sid: 'client-1' },
    });

    const prompt = template('preview');
    (prompt['12'] as { inputs: Record<string, unknown> }).inputs.image = 'tests/ref.png';
    const queued = await fetch(`${comfy.url}/prompt`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ prompt, client_id: 'client-1' }),
    });
    expect(queued.status).toBe(200);
    const answer = (await queued.json()) as {
      prompt_id: string;
      number: number;
      node_errors: object;
    };
    expect(answer).toEqual({ prompt_id: expect.any(String), number: 0, node_errors: {} });
    await until(() =>
      frames.some((f) => f.json?.type === 'executing' && f.json.data.node === null),
    );
    ws.close();

    const types = frames
      .filter((f) => f.json && f.json.type !== 'status' && f.json.type !== 'progress_state')
      .map((f) => f.json?.type);
    expect(types.slice(0, 3)).toEqual(['execution_start', 'execution_cached', 'executing']);
    expect(frames.some((f) => f.json?.type === 'progress_state')).toBe(true);
    expect(types.slice(-2)).toEqual(['execution_success', 'executing']);
    expect(types).toContain('progress');
    expect(types).toContain('executed');
    const progress = frames.filter((f) => f.json?.type === 'progress').map((f) => f.json?.data);
    expect(progress[0]).toEqual({ value: 1, max: 8, prompt_id: answer.prompt_id, node: '3' });
    // Binary preview frames: event 1 (PREVIEW_IMAGE), image type 1 (JPEG), then a JPEG.
    const binary = frames.filter((f) => f.binary).map((f) => f.binary as Buffer);
    expect(binary.length).toBe(8);
    expect(binary[0]?.readUInt32BE(0)).toBe(1);
    expect(binary[0]?.readUInt32BE(4)).toBe(1);
    expect([...(binary[0]?.subarray(8, 10) ?? [])]).toEqual([0xff, 0xd8]);

    const history = (await (
      await fetch(`${comfy.url}/history/${answer.prompt_id}`)
    ).json()) as Record<
      string,
      {
        prompt: unknown[];
        outputs: Record<
          string,
          { images: { filename: string; subfolder: string; type: string }[] }
        >;
        status: { status_str: string; completed: boolean; messages: [string, unknown][] };
      }
    >;
    const entry = history[answer.prompt_id];
    expect(entry?.prompt[1]).toBe(answer.prompt_id);
    expect(entry?.status.status_str).toBe('success');
    expect(entry?.status.messages.map(([type]) => type)).toEqual([
      'execution_start',
      'execution_cached',
      'execution_success',
    ]);
    const image = entry?.outputs['9']?.images[0];
    expect(image).toEqual({ filename: 'preview_00001_.png', subfolder: 'tessera', type: 'output' });
    const view = await fetch(
      `${comfy.url}/api/view?filename=${image?.filename}&subfolder=tessera&type=output`,
    );
    expect(view.headers.get('content-type')).toBe('image/png');
    const meta = await sharp(Buffer.from(await view.arrayBuffer())).metadata();
    // ImageScale to 1024 x 1024, latents are an eighth: 1024 x 1024.
    expect([meta.width, meta.height]).toEqual([1024, 1024]);
    expect((await fetch(`${comfy.url}/view?filename=../secret.png`)).status).toBe(400);
    expect((await fetch(`${comfy.url}/view?filename=none.png`)).status).toBe(404);
    expect(await (await fetch(`${comfy.url}/prompt`)).json()).toEqual({
      exec_info: { queue_remaining: 0 },
    });
  });

  it('refuses a bad prompt with node_errors, an unknown node with invalid_prompt (v0.3.68)', async () => {
    comfy = await startComfyStandIn();
    const prompt = template('preview');
    (prompt['3'] as { inputs: Record<string, unknown> }).inputs.cfg = 150;
    const res = await fetch(`${comfy.url}/prompt`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ prompt, client_id: 'x' }),
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as {
      error: { type: string; message: string };
      node_errors: Record<
        string,
        {
          errors: { type: string; message: string; details: string }[];
          class_type: string;
          dependent_outputs: string[];
        }
      >;
    };
    expect(body.error).toMatchObject({
      type: 'prompt_outputs_failed_validation',
      message: 'Prompt outputs failed validation',
    });
    // The reference 'reference.png' was never uploaded, and cfg is over its max.
    expect(body.node_errors['3']).toEqual({
      errors: [
        {
          type: 'value_bigger_than_max',
          message: 'Value 150 bigger than max of 100',
          details: 'cfg',
          extra_info: { input_name: 'cfg', received_value: 150 },
        },
      ],
      dependent_outputs: ['9'],
      class_type: 'KSampler',
    });
    expect(body.node_errors['12']?.errors[0]).toMatchObject({
      type: 'custom_validation_failed',
      details: 'image - Invalid image file: reference.png',
    });

    const unknown = await fetch(`${comfy.url}/prompt`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        prompt: { '1': { class_type: 'NoSuchNode', inputs: {} } },
      }),
    });
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toMatchObject({
      error: {
        type: 'invalid_prompt',
        message: 'Cannot execute because node NoSuchNode does not exist.',
        details: "Node ID '#1'",
      },
      node_errors: {},
    });
    expect(comfy.prompts).toHaveLength(0);
    expect(comfy.refused).toHaveLength(2);
  });

  it('lists the queue, deletes pending prompts and interrupts the running one', async () => {
    comfy = await startComfyStandIn({ paused: true, stepDelayMs: 30 });
    const png = await sharp({ create: { width: 32, height: 32, channels: 3, background: '#000' } })
      .png()
      .toBuffer();
    await upload(comfy.url, 'reference.png', png);
    const post = async () =>
      (
        (await (
          await fetch(`${comfy?.url}/prompt`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ prompt: template('preview') }),
          })
        ).json()) as { prompt_id: string }
      ).prompt_id;
    const a = await post();
    const b = await post();
    const queue = (await (await fetch(`${comfy.url}/queue`)).json()) as {
      queue_running: unknown[][];
      queue_pending: unknown[][];
    };
    expect(queue.queue_running).toEqual([]);
    expect(queue.queue_pending.map((item) => item[1])).toEqual([a, b]);
    await fetch(`${comfy.url}/queue`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ delete: [b] }),
    });
    expect(comfy.queueRemaining()).toBe(1);
    comfy.resume();
    await once(comfy.events, 'progress');
    const done = once(comfy.events, 'done');
    await fetch(`${comfy.url}/interrupt`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ prompt_id: a }),
    });
    const [end] = (await done) as [{ status: string }];
    expect(end.status).toBe('interrupted');
    const history = (await (await fetch(`${comfy.url}/history/${a}`)).json()) as Record<
      string,
      { status: { status_str: string; messages: [string, Record<string, unknown>][] } }
    >;
    expect(history[a]?.status.status_str).toBe('error');
    expect(history[a]?.status.messages.at(-1)?.[0]).toBe('execution_interrupted');
    expect(history[a]?.status.messages.at(-1)?.[1]).toMatchObject({
      node_id: '3',
      node_type: 'KSampler',
    });
  });

  describe('as ComfyUI v0.3.68 behaves (issue 14, part 8)', () => {
    const post = (url: string, body: unknown) =>
      fetch(`${url}/prompt`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const finishedPrompt = async (url: string, body: unknown) => {
      const res = await post(url, body);
      expect(res.status).toBe(200);
      const { prompt_id: id } = (await res.json()) as { prompt_id: string };
      await until(() => comfy?.queueRemaining() === 0 && comfy.prompts.length > 0);
      for (;;) {
        const history = (await (await fetch(`${url}/history/${id}`)).json()) as Record<
          string,
          {
            outputs: Record<string, { images: { filename: string; subfolder: string }[] }>;
            status: { status_str: string; messages: [string, Record<string, unknown>][] };
          }
        >;
        if (history[id]) return { id, entry: history[id] };
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    };
    const small = async () =>
      sharp({ create: { width: 100, height: 60, channels: 3, background: '#445566' } })
        .png()
        .toBuffer();

    it('caches nodes between prompts: a repeated prompt runs nothing and still reports its images', async () => {
      comfy = await startComfyStandIn();
      await upload(comfy.url, 'ref.png', await small());
      const prompt = template('preview');
      (prompt['12'] as { inputs: Record<string, unknown> }).inputs.image = 'ref.png';
      const { frames } = await listen(comfy.url, 'c');
      const first = await finishedPrompt(comfy.url, { prompt, client_id: 'c' });
      const executing: string[] = [];
      comfy.events.on('executing', ({ node }: { node: string }) => executing.push(node));
      const second = await finishedPrompt(comfy.url, { prompt, client_id: 'c' });
      expect(executing).toEqual([]);
      const cached = second.entry.status.messages.find(([type]) => type === 'execution_cached');
      expect((cached?.[1].nodes as string[]).sort()).toEqual(Object.keys(prompt).sort());
      expect(second.entry.outputs['9']).toEqual(first.entry.outputs['9']);
      await until(() =>
        frames.some((f) => f.json?.type === 'executed' && f.json.data.prompt_id === second.id),
      );
      // Another seed: the sampler and what follows it run again, the loaders stay cached.
      (prompt['3'] as { inputs: Record<string, unknown> }).inputs.seed = 99;
      await finishedPrompt(comfy.url, { prompt, client_id: 'c' });
      expect(executing).toEqual(['3', '721', '9']);
    });

    it('sends progress_state and, by default, no binary previews', async () => {
      comfy = await startComfyStandIn();
      await upload(comfy.url, 'ref.png', await small());
      const prompt = template('preview');
      (prompt['12'] as { inputs: Record<string, unknown> }).inputs.image = 'ref.png';
      const { frames } = await listen(comfy.url, 'c');
      const { id } = await finishedPrompt(comfy.url, { prompt, client_id: 'c' });
      await until(() =>
        frames.some((f) => f.json?.type === 'executing' && f.json.data.node === null),
      );
      expect(frames.filter((f) => f.binary)).toEqual([]);
      const states = frames.filter((f) => f.json?.type === 'progress_state');
      expect(states.length).toBeGreaterThan(0);
      expect(states.at(-1)?.json?.data).toMatchObject({
        prompt_id: id,
        nodes: { '3': { state: 'finished', node_id: '3' }, '9': { state: 'finished' } },
      });
    });

    it('an interrupt without a prompt id while nothing runs stops the next prompt at its first node', async () => {
      comfy = await startComfyStandIn();
      await upload(comfy.url, 'ref.png', await small());
      await fetch(`${comfy.url}/interrupt`, { method: 'POST' });
      const prompt = template('preview');
      (prompt['12'] as { inputs: Record<string, unknown> }).inputs.image = 'ref.png';
      const { entry } = await finishedPrompt(comfy.url, { prompt });
      expect(entry.status.status_str).toBe('error');
      expect(entry.status.messages.at(-1)).toEqual([
        'execution_interrupted',
        expect.objectContaining({ executed: [] }),
      ]);
    });

    it('answers 500 to a body that is not JSON, 413 to an upload over the limit', async () => {
      comfy = await startComfyStandIn({ maxUploadBytes: 10_000 });
      const res = await fetch(`${comfy.url}/prompt`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{not json',
      });
      expect(res.status).toBe(500);
      const big = await sharp({
        create: {
          width: 300,
          height: 300,
          channels: 3,
          noise: { type: 'gaussian', mean: 128, sigma: 60 },
        },
      })
        .png()
        .toBuffer();
      const form = new FormData();
      form.append('image', new Blob([big]), 'big.png');
      expect(
        (await fetch(`${comfy.url}/upload/image`, { method: 'POST', body: form })).status,
      ).toBe(413);
    });

    it('truncates an INT input, lists the full sampler and scheduler lists, and CR rescale does not round', async () => {
      comfy = await startComfyStandIn();
      await upload(comfy.url, 'ref.png', await small());
      const info = (await (await fetch(`${comfy.url}/object_info/KSampler`)).json()) as Record<
        string,
        { input: { required: Record<string, unknown[]> } }
      >;
      const samplers = info.KSampler?.input.required.sampler_name?.[0] as string[];
      const schedulers = info.KSampler?.input.required.scheduler?.[0] as string[];
      expect(samplers).toHaveLength(42);
      expect(samplers).toContain('res_multistep');
      expect(schedulers).toEqual([
        'simple',
        'sgm_uniform',
        'karras',
        'exponential',
        'ddim_uniform',
        'beta',
        'normal',
        'linear_quadratic',
        'kl_optimal',
      ]);
      const prompt = {
        '1': { class_type: 'LoadImage', inputs: { image: 'ref.png' } },
        '2': {
          class_type: 'CR Upscale Image',
          inputs: {
            image: ['1', 0],
            upscale_model: '4x-UltraSharp.pth',
            mode: 'rescale',
            rescale_factor: 1.74,
            resize_width: 1024.9,
            resampling_method: 'lanczos',
            supersample: 'false',
            rounding_modulus: 8,
          },
        },
        '3': { class_type: 'SaveImage', inputs: { images: ['2', 0], filename_prefix: 'cr' } },
      };
      const { entry } = await finishedPrompt(comfy.url, { prompt });
      expect(entry.status.status_str).toBe('success');
      expect(comfy.prompts[0]?.prompt['2']?.inputs.resize_width).toBe(1024);
      const image = entry.outputs['3']?.images[0];
      const view = await fetch(`${comfy.url}/view?filename=${image?.filename}&type=output`);
      const meta = await sharp(Buffer.from(await view.arrayBuffer())).metadata();
      // 100 x 60 x 1.74, truncated: 174 x 104 (rounded to 8 it would be 176 x 104).
      expect([meta.width, meta.height]).toEqual([174, 104]);
    });
  });
});
