// The engines made from the settings: the ComfyUI farm's pauses (COMFYUI_FAILING_PAUSE_MS,
// COMFYUI_PROBE_BACKOFF_MS, COMFYUI_PROBE_BACKOFF_MAX_MS) reach its pool. The waits are for the
// pool's state changes, which carry the pause before the server is asked again.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startComfyStandIn, type ComfyStandIn } from '../testing/comfyui-stand-in/index.js';
import { tempDir } from '../testing/fixtures.js';
import { FORM_DEFAULTS } from '../testing/generate-params.js';
import { bricksPng } from '../testing/http.js';
import type { ComfyUIEngine } from './comfyui/comfyui-engine.js';
import type { PoolChange } from './comfyui/pool.js';
import { comfyOptions, createEngine } from './index.js';
import { engineSettings, enginesEnv } from './settings.js';

let tmp: ReturnType<typeof tempDir>;
let referencePath: string;
const standIns: ComfyStandIn[] = [];
const engines: ComfyUIEngine[] = [];

beforeAll(async () => {
  tmp = tempDir('tessera-engine-settings-');
  referencePath = path.join(tmp.dir, 'reference.png');
  fs.writeFileSync(referencePath, await bricksPng(64, 64));
});

afterEach(async () => {
  for (const made of engines.splice(0)) made.close();
  await Promise.all(standIns.splice(0).map((comfy) => comfy.close()));
});

afterAll(() => tmp.remove());

/** The engines' settings from their variables, as config.ts reads them. */
function settingsOf(env: Record<string, string>) {
  return engineSettings(z.object(enginesEnv).parse(env));
}

function comfyEngine(env: Record<string, string>): ComfyUIEngine {
  const made = createEngine(settingsOf({ ENGINE: 'comfyui', ...env })) as ComfyUIEngine;
  engines.push(made);
  return made;
}

/** The server's state changes, until `count` of them. */
function changes(made: ComfyUIEngine, count: number): Promise<PoolChange[]> {
  const seen: PoolChange[] = [];
  return new Promise((resolve) => {
    const stop = made.onServerChange((change) => {
      if (change.state === 'checking') return;
      seen.push(change);
      if (seen.length < count) return;
      stop();
      resolve(seen);
    });
  });
}

describe('the ComfyUI engine from its settings', () => {
  it('maps the COMFYUI_* pauses to the pool', () => {
    const config = settingsOf({
      ENGINE: 'comfyui',
      COMFYUI_URLS: 'http://gpu-1:8188',
      COMFYUI_FAILING_AFTER: '2',
      COMFYUI_FAILING_PAUSE_MS: '120000',
      COMFYUI_PROBE_BACKOFF_MS: '2000',
      COMFYUI_PROBE_BACKOFF_MAX_MS: '30000',
    });
    if (!config.comfyui) throw new Error('COMFYUI_URLS was set');
    expect(comfyOptions(config.comfyui).pool).toEqual({
      failingAfter: 2,
      failingPauseMs: 120_000,
      retryAfterMs: 2000,
      maxRetryAfterMs: 30_000,
    });
  });

  it('a down server is asked again after COMFYUI_PROBE_BACKOFF_MS, doubling up to the max', async () => {
    const comfy = await startComfyStandIn();
    standIns.push(comfy);
    await comfy.crash();
    const made = comfyEngine({
      COMFYUI_URLS: comfy.url,
      COMFYUI_PROBE_BACKOFF_MS: '100',
      COMFYUI_PROBE_BACKOFF_MAX_MS: '300',
    });
    const seen = changes(made, 4);
    await made.start();
    expect((await seen).map((c) => [c.state, c.pause])).toEqual([
      ['down', 100],
      ['down', 200],
      ['down', 300],
      ['down', 300],
    ]);
  });

  it('a failing server is left out for COMFYUI_FAILING_PAUSE_MS', async () => {
    const broken = await startComfyStandIn({ failAtNode: '4', stepDelayMs: 1 });
    standIns.push(broken);
    const made = comfyEngine({
      COMFYUI_URLS: broken.url,
      COMFYUI_FAILING_AFTER: '1',
      COMFYUI_FAILING_PAUSE_MS: '90000',
    });
    const seen = changes(made, 1);
    const params = {
      ...FORM_DEFAULTS,
      referencePath,
      outputPath: path.join(tmp.dir, 'preview.png'),
      width: 512,
      height: 512,
      seed: 1,
      mask: false,
      positivePrompt: 'red brick wall',
      negativePrompt: '',
    };
    await expect(
      made.generate(params, () => undefined, new AbortController().signal),
    ).rejects.toThrow(/failed at node 4/);
    expect(await seen).toEqual([expect.objectContaining({ state: 'failing', pause: 90_000 })]);
  });
});
