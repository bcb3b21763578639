import { EventEmitter, once } from 'node:events';
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

/**
 * A /ws client recording every frame. `until(check)` resolves once a frame arrives after which
 * `check` holds (at once if it holds already); `drained()` once the server has answered a ping,
 * which it sends after every frame it sent before: nothing it sent so far is still on the way.
 */
async function listen(url: string, clientId: string) {
  const frames: Frame[] = [];
  const arrivals = new EventEmitter();
  const ws = new WebSocket(`${url.replace('http', 'ws')}/ws?clientId=${clientId}`);
  ws.on('message', (data: Buffer, isBinary) => {
    if (isBinary) frames.push({ binary: data });
    else frames.push({ json: JSON.parse(data.toString()) as Frame['json'] });
    arrivals.emit('frame');
  });
  const until = (check: () => boolean) =>
    new Promise<void>((resolve) => {
      const test = () => {
        if (!check()) return;
        arrivals.off('frame', test);
        resolve();
      };
      arrivals.on('frame', test);
      test();
    });
  const drained = async () => {
    const pong = once(ws, 'pong');
    ws.ping();
    await pong;
  };
  await once(ws, 'open');
  return { ws, frames, until, drained };
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

    const { ws, frames, until } = await listen(comfy.url, 'client-1');
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
    /** Queues a prompt and waits for its 'done' event: its history is written by then. */
    const finishedPrompt = async (url: string, body: unknown) => {
      const events = comfy?.events;
      if (!events) throw new Error('no stand-in');
      // Listening before the POST: the prompt may be done before its answer is read.
      const done = new Set<string>();
      let heard: (() => void) | undefined;
      const onDone = ({ prompt_id }: { prompt_id: string }) => {
        done.add(prompt_id);
        heard?.();
      };
      events.on('done', onDone);
      let id: string;
      try {
        const res = await post(url, body);
        expect(res.status).toBe(200);
        ({ prompt_id: id } = (await res.json()) as { prompt_id: string });
        await new Promise<void>((resolve) => {
          heard = () => void (done.has(id) && resolve());
          heard();
        });
      } finally {
        events.off('done', onDone);
      }
      const history = (await (await fetch(`${url}/history/${id}`)).json()) as Record<
        string,
        {
          outputs: Record<string, { images: { filename: string; subfolder: string }[] }>;
          status: { status_str: string; messages: [string, Record<string, unknown>][] };
        }
      >;
      const entry = history[id];
      if (!entry) throw new Error(`no history for prompt ${id} after its end`);
      return { id, entry };
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
      const { frames, until } = await listen(comfy.url, 'c');
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

    it('caches by what a node computes, not its id: the same image under another id is cached', async () => {
      comfy = await startComfyStandIn();
      await upload(comfy.url, 'ref.png', await small());
      const save = (id: string) => ({
        [id]: { class_type: 'LoadImage', inputs: { image: 'ref.png' } },
        '9': { class_type: 'SaveImage', inputs: { images: [id, 0], filename_prefix: 'x' } },
      });
      await finishedPrompt(comfy.url, { prompt: save('1') });
      const executing: string[] = [];
      comfy.events.on('executing', ({ node }: { node: string }) => executing.push(node));
      // As ComfyUI v0.3.68 did with the preview template after a prompt of other ids.
      const second = await finishedPrompt(comfy.url, { prompt: save('12') });
      const cached = second.entry.status.messages.find(([type]) => type === 'execution_cached');
      // In the prompt's order as sent (JSON.stringify puts integer keys first, ascending).
      expect(cached?.[1].nodes).toEqual(['9', '12']);
      expect(executing).toEqual([]);
    });

    it('describes a node without optional inputs with no optional key, as server.py does', async () => {
      comfy = await startComfyStandIn();
      const info = (await (await fetch(`${comfy.url}/object_info/KSampler`)).json()) as Record<
        string,
        { input: Record<string, unknown>; input_order: Record<string, unknown> }
      >;
      expect(Object.keys(info.KSampler?.input ?? {})).toEqual(['required']);
      expect(Object.keys(info.KSampler?.input_order ?? {})).toEqual(['required']);
      const loader = (await (
        await fetch(`${comfy.url}/object_info/IPAdapterUnifiedLoader`)
      ).json()) as Record<string, { input: { optional?: Record<string, unknown> } }>;
      expect(loader.IPAdapterUnifiedLoader?.input.optional).toEqual({ ipadapter: ['IPADAPTER'] });
    });

    it('reports a failing node as execution.py does: message ending in a newline, inputs, outputs', async () => {
      comfy = await startComfyStandIn({ failAtNode: '2' });
      await upload(comfy.url, 'ref.png', await small());
      const prompt = {
        '1': { class_type: 'LoadImage', inputs: { image: 'ref.png' } },
        '2': {
          class_type: 'ImageScaleBy',
          inputs: { image: ['1', 0], upscale_method: 'lanczos', scale_by: 2 },
        },
        '9': { class_type: 'SaveImage', inputs: { images: ['2', 0], filename_prefix: 'x' } },
      };
      const { entry } = await finishedPrompt(comfy.url, { prompt });
      const error = entry.status.messages.find(([type]) => type === 'execution_error')?.[1];
      expect(error).toMatchObject({
        node_id: '2',
        node_type: 'ImageScaleBy',
        exception_message: 'stand-in failure at node 2\n',
        exception_type: 'RuntimeError',
        current_inputs: { upscale_method: ['lanczos'], scale_by: [2] },
        current_outputs: ['1', '2', '9'],
      });
    });

    it('answers an upload without an image 400, one whose part has no file name 500', async () => {
      comfy = await startComfyStandIn();
      const none = new FormData();
      none.append('type', 'temp');
      expect(
        (await fetch(`${comfy.url}/upload/image`, { method: 'POST', body: none })).status,
      ).toBe(400);
      const plain = new FormData();
      plain.append('image', 'not a file');
      expect(
        (await fetch(`${comfy.url}/upload/image`, { method: 'POST', body: plain })).status,
      ).toBe(500);
    });

    it('refuses a link to a missing node and a bad number as v0.3.68 did', async () => {
      comfy = await startComfyStandIn();
      await upload(comfy.url, 'ref.png', await small());
      const prompt = (scale: Record<string, unknown>, save: Record<string, unknown> = {}) => ({
        '1': { class_type: 'LoadImage', inputs: { image: 'ref.png' } },
        '2': {
          class_type: 'ImageScale',
          inputs: {
            image: ['1', 0],
            upscale_method: 'lanczos',
            width: 32,
            height: 24,
            crop: 'center',
            ...scale,
          },
        },
        '9': {
          class_type: 'SaveImage',
          inputs: { images: ['2', 0], filename_prefix: 'x', ...save },
        },
      });
      const refusal = async (body: unknown) => {
        const res = await post(comfy?.url ?? '', { prompt: body });
        expect(res.status).toBe(400);
        return (await res.json()) as {
          error: { details: string };
          node_errors: Record<string, { errors: { type: string; details: string }[] }>;
        };
      };
      // Node 2 links to a node that is not there: the KeyError is caught by node 9, which
      // names node 2's error after its own input and link (as the real server answered).
      const inner = await refusal(prompt({ image: ['77', 0] }));
      expect(inner.error.details).toBe('');
      expect(inner.node_errors['2']?.errors).toEqual([
        {
          type: 'exception_during_inner_validation',
          message: 'Exception when validating inner node',
          details: "'77'",
          extra_info: expect.objectContaining({
            input_name: 'images',
            exception_type: 'KeyError',
            exception_message: "'77'",
            linked_node: ['2', 0],
          }) as unknown,
        },
      ]);
      // The output itself links to a missing node: validate_prompt catches it.
      const outer = await refusal(prompt({}, { images: ['77', 0] }));
      expect(outer.node_errors['9']?.errors[0]).toMatchObject({
        type: 'exception_during_validation',
        details: "'77'",
      });
      expect(outer.error.details).toBe("Exception when validating node: '77'");
      const notInt = await refusal(prompt({ width: 'abc' }));
      expect(notInt.node_errors['2']?.errors[0]?.details).toBe(
        "width, abc, invalid literal for int() with base 10: 'abc'",
      );
      // Python's int(True) is 1: a boolean is a number; null is not.
      const notNone = await refusal(prompt({ width: true, height: null }));
      expect(notNone.node_errors['2']?.errors).toHaveLength(1);
      expect(notNone.node_errors['2']?.errors[0]?.details).toBe(
        "height, None, int() argument must be a string, a bytes-like object or a real number, not 'NoneType'",
      );
      const accepted = await post(comfy.url, { prompt: prompt({ width: true, height: true }) });
      expect(accepted.status).toBe(200);
    });

    it('tells other clients only the status and progress of a prompt queued without client_id', async () => {
      comfy = await startComfyStandIn();
      await upload(comfy.url, 'ref.png', await small());
      const prompt = template('preview');
      (prompt['12'] as { inputs: Record<string, unknown> }).inputs.image = 'ref.png';
      const { frames, drained } = await listen(comfy.url, 'watcher');
      await finishedPrompt(comfy.url, { prompt });
      // The prompt is over: every frame for it has been sent, and has arrived once drained.
      await drained();
      expect(frames.filter((f) => f.json?.type === 'status').length).toBeGreaterThanOrEqual(4);
      const types = new Set(frames.map((f) => f.json?.type));
      // As the real v0.3.68 did: no execution_*, executing or executed for anyone.
      expect([...types].sort()).toEqual(['progress', 'progress_state', 'status']);
    });

    it('forgets a client id when any of its sockets closes, as server.py does', async () => {
      comfy = await startComfyStandIn();
      await upload(comfy.url, 'ref.png', await small());
      const old = await listen(comfy.url, 'same');
      const current = await listen(comfy.url, 'same');
      // The old socket is not closed by the server...
      expect(old.ws.readyState).toBe(WebSocket.OPEN);
      // ...but when it closes, the id goes with it: the new socket hears nothing more.
      const forgotten = once(comfy.events, 'disconnected');
      old.ws.close();
      expect(await forgotten).toEqual([{ sid: 'same' }]);
      // Its greeting has arrived: what it hears from here on would be the prompt's.
      await current.drained();
      const heard = current.frames.length;
      await finishedPrompt(comfy.url, {
        prompt: {
          '1': { class_type: 'LoadImage', inputs: { image: 'ref.png' } },
          '9': { class_type: 'SaveImage', inputs: { images: ['1', 0], filename_prefix: 'x' } },
        },
        client_id: 'same',
      });
      // The prompt is over and anything sent to this socket has arrived: it heard nothing.
      await current.drained();
      expect(current.frames.length).toBe(heard);
      current.ws.close();
    });

    it('reads POST bodies as server.py: /interrupt alone tolerates one that is not JSON', async () => {
      comfy = await startComfyStandIn();
      const status = async (route: string, body: string) =>
        (await fetch(`${comfy?.url}${route}`, { method: 'POST', body })).status;
      // request.json() on an empty body fails, uncaught: 500 (as the real v0.3.68 answered).
      expect(await status('/prompt', '')).toBe(500);
      expect(await status('/queue', '')).toBe(500);
      expect(await status('/history', '')).toBe(500);
      // /interrupt catches it and stops whatever runs; a JSON value that is not an object fails.
      expect(await status('/interrupt', '')).toBe(200);
      expect(await status('/interrupt', 'garbage')).toBe(200);
      expect(await status('/interrupt', '"a string"')).toBe(500);
      expect(await status('/queue', '[]')).toBe(200);
    });

    it('sends progress_state and, by default, no binary previews', async () => {
      comfy = await startComfyStandIn();
      await upload(comfy.url, 'ref.png', await small());
      const prompt = template('preview');
      (prompt['12'] as { inputs: Record<string, unknown> }).inputs.image = 'ref.png';
      const { frames, until } = await listen(comfy.url, 'c');
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

    it('an interrupt while nothing runs stops nothing: each prompt clears the flag as it starts', async () => {
      comfy = await startComfyStandIn();
      await upload(comfy.url, 'ref.png', await small());
      await fetch(`${comfy.url}/interrupt`, { method: 'POST' });
      const prompt = template('preview');
      (prompt['12'] as { inputs: Record<string, unknown> }).inputs.image = 'ref.png';
      const { entry } = await finishedPrompt(comfy.url, { prompt });
      expect(entry.status.status_str).toBe('success');
    });

    it('sends each step in the order of v0.3.68: state before progress, executed before finished', async () => {
      comfy = await startComfyStandIn({ maxSteps: 2 });
      await upload(comfy.url, 'ref.png', await small());
      const prompt = template('preview');
      (prompt['12'] as { inputs: Record<string, unknown> }).inputs.image = 'ref.png';
      const { frames, until } = await listen(comfy.url, 'c');
      // Each frame in short; a state is told for the node last started or reported.
      let focus = '';
      const step = (f: Frame) => {
        const data = f.json?.data ?? {};
        const node = typeof data.node === 'string' ? data.node : '';
        if (node) focus = node;
        if (f.json?.type === 'progress_state') {
          const nodes = data.nodes as Record<string, { state: string; value: number; max: number }>;
          const state = nodes[focus];
          return `state ${focus} ${state?.state} ${state?.value}/${state?.max}`;
        }
        if (f.json?.type === 'progress') return `progress ${node} ${String(data.value)}`;
        return `${f.json?.type} ${node}`;
      };
      await finishedPrompt(comfy.url, { prompt, client_id: 'c' });
      await until(() => frames.some((f) => f.json?.type === 'executing' && !f.json.data.node));
      const sampler = frames.map(step);
      const from = sampler.indexOf('executing 3') - 1;
      expect(sampler.slice(from, from + 7)).toEqual([
        // Told before its executing, so for the node before it.
        expect.stringMatching(/^state \d+ finished/),
        'executing 3',
        'state 3 running 1/2',
        'progress 3 1',
        'state 3 running 2/2',
        'progress 3 2',
        'state 3 finished 2/2',
      ]);
      const save = sampler.indexOf('executing 9');
      expect(sampler.slice(save, save + 3)).toEqual([
        'executing 9',
        'executed 9',
        'state 9 finished 1/1',
      ]);

      // Run again: all cached; only the output node tells its images, then its state.
      frames.length = 0;
      await finishedPrompt(comfy.url, { prompt, client_id: 'c' });
      await until(() => frames.some((f) => f.json?.type === 'executing' && !f.json.data.node));
      expect(frames.map(step).filter((s) => !s.startsWith('status'))).toEqual([
        'execution_start ',
        'execution_cached ',
        'executed 9',
        'state 9 finished 1/1',
        'execution_success ',
        'executing ',
      ]);
    });

    it('answers an upload of an unknown type with 500 and counts refused prompts’ numbers', async () => {
      const started = await startComfyStandIn();
      comfy = started;
      const form = new FormData();
      form.append('image', new Blob([await small()], { type: 'image/png' }), 'x.png');
      form.append('type', 'elsewhere');
      expect(
        (await fetch(`${comfy.url}/upload/image`, { method: 'POST', body: form })).status,
      ).toBe(500);
      const post = (body: unknown) =>
        fetch(`${started.url}/prompt`, { method: 'POST', body: JSON.stringify(body) });
      const refused = await post({
        prompt: {
          1: { class_type: 'LoadImage', inputs: { image: 'none.png' } },
          2: { class_type: 'SaveImage', inputs: { images: ['1', 0], filename_prefix: 'x' } },
        },
      });
      expect(refused.status).toBe(400);
      // The output fails through node 1: its own reasons, none, are the details.
      expect(((await refused.json()) as { error: { details: string } }).error.details).toBe('');
      await upload(comfy.url, 'ref.png', await small());
      const accepted = await post({
        prompt: {
          1: { class_type: 'LoadImage', inputs: { image: 'ref.png' } },
          2: { class_type: 'SaveImage', inputs: { images: ['1', 0], filename_prefix: 'x' } },
        },
      });
      expect(((await accepted.json()) as { number: number }).number).toBe(1);
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
          background: '#000000', // sharp's type asks for it; the noise replaces it
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
      // A v3 node (UpscaleModelLoader) gives its list as ["COMBO", {options}], as v0.3.68 does.
      const loader = (await (
        await fetch(`${comfy.url}/object_info/UpscaleModelLoader`)
      ).json()) as {
        UpscaleModelLoader: { input: { required: { model_name: unknown } } };
      };
      expect(loader.UpscaleModelLoader.input.required.model_name).toEqual([
        'COMBO',
        { options: ['4x-UltraSharp.pth', 'RealESRGAN_x4plus.pth'] },
      ]);
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
