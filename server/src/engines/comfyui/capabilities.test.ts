// Each server's node types and models, checked with GET /object_info before it gets jobs.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { comfyEngines, never } from '../../testing/comfyui-engines.js';
import { bricksPng } from '../../testing/http.js';
import { startTestServer } from '../../testing/test-server.js';
import type { GenerateParams } from '../engine.js';
import { NoServerAvailableError } from './pool.js';

const comfyui = comfyEngines('tessera-comfy-needs-', () => bricksPng(64, 64));
const { standIn, engine } = comfyui;

const params = (): GenerateParams =>
  comfyui.previewParams({
    seed: 1,
    promptAdherence: 1,
    style: 0,
    positivePrompt: 'sand',
    negativePrompt: '',
  });

describe('what each server has (part 4)', () => {
  it('a server missing a node pack and the IPAdapter model is reported and gets no jobs', async () => {
    const good = await standIn();
    const lacking = await standIn({ ipadapterModels: [], withoutNodes: ['CR Upscale Image'] });
    const made = engine([lacking.url, good.url]);
    const health = await made.start();

    expect(health.ok).toBe(true);
    expect(health.servers?.[0]).toMatchObject({
      url: lacking.url,
      state: 'incomplete',
      version: 'stand-in',
      missing: [
        'node type "CR Upscale Image" (a custom node pack not installed?)',
        'an IPAdapter model for the preset "PLUS (high strength)" (models/ipadapter/, a name matching plus.sdxl.vit.h\\.(safetensors|bin)$)',
      ],
    });
    expect(health.servers?.[1]).toMatchObject({ url: good.url, state: 'up', missing: [] });

    await Promise.all([1, 2, 3].map(() => made.generate(params(), () => undefined, never())));
    expect(lacking.prompts).toHaveLength(0);
    expect(good.prompts).toHaveLength(3);
  });

  it('with no complete server the job fails naming what is missing; nothing is queued', async () => {
    const lacking = await standIn({ checkpoints: ['other.safetensors'], clipVisionModels: [] });
    const failure = engine([lacking.url]).generate(params(), () => undefined, never());
    await expect(failure).rejects.toBeInstanceOf(NoServerAvailableError);
    await expect(failure).rejects.toThrow(
      `No ComfyUI server can take the job: ${lacking.url} (lacks "sd_xl_base_1.0.safetensors" for ckpt_name of node 4 (CheckpointLoaderSimple, preview.json)`,
    );
    await expect(failure).rejects.toThrow(
      /a CLIP-Vision model for the preset "PLUS \(high strength\)"/,
    );
    expect(lacking.prompts).toHaveLength(0);
    expect(lacking.uploads).toHaveLength(0);
  });

  it('a server whose model was deleted after its check fails one job, then gets no more', async () => {
    const broken = await standIn();
    const good = await standIn();
    const made = engine([broken.url, good.url]);
    expect((await made.start()).servers?.map((s) => s.state)).toEqual(['up', 'up']);
    // Deleted while Tessera runs: the check at start saw it; only running the prompt finds out.
    broken.removeModel('ip-adapter-plus_sdxl_vit-h.safetensors');

    await expect(made.generate(params(), () => undefined, never())).rejects.toThrow(
      'IPAdapter model not found',
    );
    expect(broken.prompts).toHaveLength(1);
    // The retries, and every job after them, go to the server that has what they need.
    for (let job = 1; job <= 3; job++) await made.generate(params(), () => undefined, never());
    expect(broken.prompts).toHaveLength(1);
    expect(good.prompts).toHaveLength(3);
    const health = await made.health();
    expect(health.servers?.[0]).toMatchObject({ state: 'incomplete' });
    expect(health.servers?.[0]?.missing.join()).toMatch(/an IPAdapter model for the preset/);
  });

  it('GET /api/health says what a server lacks', async () => {
    const lacking = await standIn({ clipVisionModels: [] });
    const made = engine([lacking.url]);
    const t = await startTestServer(['bob'], 'embedded', { engine: made });
    try {
      const res = await fetch(`http://127.0.0.1:${t.server.port}/api/health`);
      const body = (await res.json()) as {
        status: string;
        engine: { ok: boolean; servers: { state: string; missing: string[] }[] };
      };
      expect(body.status).toBe('degraded');
      expect(body.engine.ok).toBe(false);
      expect(body.engine.servers[0]?.state).toBe('incomplete');
      expect(body.engine.servers[0]?.missing).toEqual([
        'a CLIP-Vision model for the preset "PLUS (high strength)" (models/clip_vision/, a name matching (ViT.H.14.*s32B.b79K|ipadapter.*sd15|sd1.?5.*model)\\.(bin|safetensors))',
      ]);
    } finally {
      await t.stop();
    }
  });

  it('without the check, the missing IPAdapter model fails only while the prompt runs', async () => {
    const lacking = await standIn({ ipadapterModels: [] });
    // Straight to the server, as the adapter did before it checked.
    const template = JSON.parse(
      fs.readFileSync(path.join(import.meta.dirname, 'workflows', 'preview.json'), 'utf8'),
    ) as Record<string, { inputs: Record<string, unknown> }>;
    const form = new FormData();
    form.append('image', new Blob([fs.readFileSync(comfyui.referencePath)]), 'ref.png');
    await fetch(`${lacking.url}/upload/image`, { method: 'POST', body: form });
    if (template['12']) template['12'].inputs.image = 'ref.png';
    const queued = await fetch(`${lacking.url}/prompt`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ prompt: template }),
    });
    expect(queued.status).toBe(200);
    const { prompt_id: id } = (await queued.json()) as { prompt_id: string };
    const [done] = (await new Promise<unknown[]>((resolve) =>
      lacking.events.once('done', (...a) => resolve(a)),
    )) as [{ status: string }];
    expect(done.status).toBe('error');
    const history = (await (await fetch(`${lacking.url}/history/${id}`)).json()) as Record<
      string,
      { status: { messages: [string, { exception_message?: string; node_id?: string }][] } }
    >;
    const error = history[id]?.status.messages.find(([type]) => type === 'execution_error')?.[1];
    // ComfyUI_IPAdapter_plus raises a plain Exception; execution.py adds the newline.
    expect(error).toMatchObject({
      node_id: '610',
      exception_type: 'Exception',
      exception_message: 'IPAdapter model not found.\n',
    });
  });
});
