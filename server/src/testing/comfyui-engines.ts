/** The set-up the ComfyUI engine's tests share: stand-ins, engines and a reference image. */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { ComfyUIEngine, type ComfyUIEngineOptions } from '../engines/comfyui/comfyui-engine.js';
import type { GenerateParams } from '../engines/engine.js';
import { startComfyStandIn, type ComfyStandIn } from './comfyui-stand-in/index.js';
import { tempDir } from './fixtures.js';

export interface ComfyEngines {
  /** The test file's temp folder (set in beforeAll). */
  readonly dir: string;
  /** The reference image in it. */
  readonly referencePath: string;
  /** Starts a stand-in, closed after the test. */
  standIn(options?: Parameters<typeof startComfyStandIn>[0]): Promise<ComfyStandIn>;
  /** An engine on `urls`, closed after the test. */
  engine(urls: string[], options?: Partial<ComfyUIEngineOptions>): ComfyUIEngine;
  /** A 512 x 512 preview of the reference into a fresh file of the temp folder. */
  previewParams(overrides?: Partial<GenerateParams>): GenerateParams;
}

/**
 * Registers the hooks of a test file on the ComfyUI engine: a temp folder with `reference()`
 * written as reference.png before all tests, the stand-ins and engines made in a test closed
 * after it (engines first), the folder removed after all.
 */
export function comfyEngines(prefix: string, reference: () => Promise<Buffer>): ComfyEngines {
  let tmp: ReturnType<typeof tempDir> | undefined;
  const standIns: ComfyStandIn[] = [];
  const engines: ComfyUIEngine[] = [];
  const folder = () => {
    if (!tmp) throw new Error('comfyEngines: used before its beforeAll ran');
    return tmp.dir;
  };

  beforeAll(async () => {
    tmp = tempDir(prefix);
    fs.writeFileSync(path.join(tmp.dir, 'reference.png'), await reference());
  });
  afterEach(async () => {
    for (const made of engines.splice(0)) made.close();
    await Promise.all(standIns.splice(0).map((comfy) => comfy.close()));
  });
  afterAll(() => tmp?.remove());

  return {
    get dir() {
      return folder();
    },
    get referencePath() {
      return path.join(folder(), 'reference.png');
    },
    async standIn(options = {}) {
      const comfy = await startComfyStandIn(options);
      standIns.push(comfy);
      return comfy;
    },
    engine(urls, options = {}) {
      const made = new ComfyUIEngine({ urls, ...options });
      engines.push(made);
      return made;
    },
    previewParams(overrides = {}) {
      return {
        referencePath: path.join(folder(), 'reference.png'),
        outputPath: path.join(folder(), `preview-${Math.random().toString(36).slice(2)}.png`),
        width: 512,
        height: 512,
        seed: 1234,
        seamless: false,
        mask: false,
        similarity: 0.8,
        imaginationWeight: 7.5,
        promptAdherence: 1.2,
        style: 0.3,
        positivePrompt: 'weathered red brick wall',
        negativePrompt: 'blurry, text',
        ...overrides,
      };
    },
  };
}

/** A signal never aborted. */
export const never = (): AbortSignal => new AbortController().signal;
