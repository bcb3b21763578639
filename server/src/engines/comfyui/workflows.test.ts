import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { tempDir } from '../../testing/fixtures.js';
import { FORM_DEFAULTS } from '../../testing/generate-params.js';
import { bricksPng } from '../../testing/http.js';
import { startComfyStandIn } from '../../testing/comfyui-stand-in/index.js';
import { createEngine } from '../index.js';
import { engineSettings, enginesEnv } from '../settings.js';
import type { ComfyWorkflow } from './api-types.js';
import { ComfyUIEngine } from './comfyui-engine.js';
import { WorkflowTemplateError } from './errors.js';
import {
  DEFAULT_WORKFLOWS_DIR,
  fillHd,
  fillPreview,
  HD_NODES,
  loadWorkflowTemplates,
  PREVIEW_NODES,
} from './workflows.js';

let dir: ReturnType<typeof tempDir>;
beforeEach(() => {
  dir = tempDir('tessera-workflows-');
});
afterEach(() => dir.remove());

const shipped = (name: 'preview' | 'hd'): ComfyWorkflow =>
  JSON.parse(
    fs.readFileSync(path.join(DEFAULT_WORKFLOWS_DIR, `${name}.json`), 'utf8'),
  ) as ComfyWorkflow;

const write = (name: string, value: unknown) =>
  fs.writeFileSync(path.join(dir.dir, name), JSON.stringify(value));

describe('workflow templates', () => {
  it('ships a preview and an HD template whose node ids are the metadata names', () => {
    const templates = loadWorkflowTemplates();
    for (const binding of Object.values(PREVIEW_NODES)) {
      expect(templates.preview.workflow[binding.id]?.class_type).toBe(binding.classType);
    }
    for (const binding of Object.values(HD_NODES)) {
      expect(templates.hd.workflow[binding.id]?.class_type).toBe(binding.classType);
    }
    expect(templates.preview.workflow['585']?.class_type).toBe('CLIPTextEncode');
    expect(templates.preview.workflow['716']?.class_type).toBe('CLIPTextEncode');
    expect(templates.hd.workflow['711']?.class_type).toBe('CR Upscale Image');
    expect(templates.hd.workflow['701']?.class_type).toBe('CR Upscale Image');
    expect(templates.hd.workflow['707']?.class_type).toBe('LatentUpscaleBy');
    expect(templates.hd.workflow['692']?.class_type).toBe('ImageScaleBy');
  });

  it('fills inputs by node id and input name, leaving the template untouched', () => {
    const templates = loadWorkflowTemplates();
    const before = structuredClone(templates.preview.workflow);
    const prompt = fillPreview(templates.preview, {
      referenceImage: 'tessera/ref.png',
      positivePrompt: 'mossy stones',
      negativePrompt: 'text',
      width: 2506,
      height: 418,
      seed: 42,
      imaginationWeight: 12,
      similarity: 0.5,
      promptAdherence: 2,
      style: 1,
      seamless: true,
    });
    expect(templates.preview.workflow).toEqual(before);
    expect(prompt['585']?.inputs.text).toBe('mossy stones');
    expect(prompt['716']?.inputs.text).toBe('text');
    expect(prompt['3']?.inputs).toMatchObject({ seed: 42, cfg: 12, denoise: 0.5, steps: 30 });
    expect(prompt['5']?.inputs).toMatchObject({ width: 2506, height: 418 });
    expect(prompt['600']?.inputs.weight).toBe(2);
    expect(prompt['601']?.inputs.weight).toBe(1);
    expect(prompt['720']?.inputs.tiling).toBe('enable');
    expect(prompt['721']?.inputs.tiling).toBe('enable');

    const hd = fillHd(templates.hd, {
      sourceImage: 'tessera/ld.png',
      sourceWidth: 677,
      sourceHeight: 1548,
      rescale_factor_cr711: 1.74,
      scale_by_latent707: 1,
      rescale_factor_cr701: 3.51,
      scale_by_image692: 4,
      seed: 7,
      seamless: false,
    });
    expect(hd['10']?.inputs.image).toBe('tessera/ld.png');
    expect(hd['711']?.inputs.rescale_factor).toBe(1.74);
    expect(hd['707']?.inputs.scale_by).toBe(1);
    expect(hd['701']?.inputs.rescale_factor).toBe(3.51);
    expect(hd['692']?.inputs.scale_by).toBe(4);
    expect(hd['712']?.inputs).toMatchObject({ width: 677, height: 1548 });
    expect(hd['3']?.inputs.seed).toBe(7);
  });

  it('refuses a replacement that lacks a node it needs, naming it', () => {
    const preview = shipped('preview');
    delete preview['585'];
    write('preview.json', preview);
    expect(
      () => new ComfyUIEngine({ urls: ['http://127.0.0.1:1'], workflowsDir: dir.dir }),
    ).toThrow(
      new WorkflowTemplateError(
        `Workflow template ${path.join(dir.dir, 'preview.json')}: lacks node "585" (CLIPTextEncode: the positive prompt (cliptextencode_585))`,
      ),
    );
  });

  it('refuses a node without the input it fills, a dangling link, the UI format, a missing folder', () => {
    const hd = shipped('hd');
    delete hd['701']?.inputs.rescale_factor;
    write('hd.json', hd);
    expect(() => loadWorkflowTemplates(dir.dir)).toThrow(
      'node "701" (CR Upscale Image, rescale_factor_cr701) lacks the input "rescale_factor"',
    );

    const dangling = shipped('hd');
    delete dangling['712'];
    write('hd.json', dangling);
    expect(() => loadWorkflowTemplates(dir.dir)).toThrow(
      'node "701" (CR Upscale Image) input "image" links to node "712", which is missing',
    );

    write('hd.json', { nodes: [], links: [], version: 0.4 });
    expect(() => loadWorkflowTemplates(dir.dir)).toThrow(
      /UI format; export it with "Save \(API Format\)"/,
    );

    fs.writeFileSync(path.join(dir.dir, 'hd.json'), '{ not json');
    expect(() => loadWorkflowTemplates(dir.dir)).toThrow(/hd\.json cannot be read/);

    expect(() => loadWorkflowTemplates(path.join(dir.dir, 'nope'))).toThrow(
      /COMFYUI_WORKFLOWS_DIR .*nope does not exist/,
    );
  });

  it("uses the operator's template where given (and the shipped one for the other)", async () => {
    const preview = shipped('preview');
    // An operator's variant: fewer steps, another sampler, no style node (it is optional).
    Object.assign(preview['3']?.inputs ?? {}, { steps: 12, sampler_name: 'euler' });
    delete preview['601'];
    if (preview['720']) preview['720'].inputs.model = ['600', 0];
    write('preview.json', preview);
    const comfy = await startComfyStandIn();
    const engine = new ComfyUIEngine({ urls: [comfy.url], workflowsDir: dir.dir });
    try {
      expect(engine.templates.preview.file).toBe(path.join(dir.dir, 'preview.json'));
      expect(engine.templates.hd.file).toBe(path.join(DEFAULT_WORKFLOWS_DIR, 'hd.json'));
      const reference = path.join(dir.dir, 'reference.png');
      fs.writeFileSync(reference, await bricksPng(64, 64));
      await engine.generate(
        {
          referencePath: reference,
          outputPath: path.join(dir.dir, 'out.png'),
          width: 1024,
          height: 1024,
          seed: 5,
          ...FORM_DEFAULTS,
          style: 0.5,
          positivePrompt: 'sand',
          negativePrompt: '',
        },
        () => undefined,
        new AbortController().signal,
      );
      const sent = comfy.prompts[0]?.prompt ?? {};
      expect(sent['3']?.inputs).toMatchObject({ steps: 12, sampler_name: 'euler', seed: 5 });
      expect(sent['601']).toBeUndefined();
      expect(sent['585']?.inputs.text).toBe('sand');
    } finally {
      engine.close();
      await comfy.close();
    }
  });

  it('the shipped HD template does not supersample (8x the target size); an operator may', () => {
    // supersample "true" makes CR Upscale Image resize to 8x the target first: up to ~826 MP.
    const hd = loadWorkflowTemplates().hd;
    for (const id of ['711', '701']) {
      expect(hd.workflow[id]?.inputs.supersample, `node ${id}`).toBe('false');
    }
    const own = shipped('hd');
    if (own['701']) own['701'].inputs.supersample = 'true';
    write('hd.json', own);
    const filled = fillHd(loadWorkflowTemplates(dir.dir).hd, {
      sourceImage: 'ld.png',
      sourceWidth: 1024,
      sourceHeight: 1024,
      rescale_factor_cr711: 1.74,
      scale_by_latent707: 1,
      rescale_factor_cr701: 1.5,
      scale_by_image692: 1.4,
      seed: 1,
      seamless: false,
    });
    expect(filled['701']?.inputs.supersample).toBe('true');
    expect(filled['711']?.inputs.supersample).toBe('false');
  });

  it('createEngine makes the ComfyUI engine for ENGINE=comfyui', () => {
    const engine = createEngine(
      engineSettings(
        z.object(enginesEnv).parse({ ENGINE: 'comfyui', COMFYUI_URLS: 'http://127.0.0.1:8188' }),
      ),
    );
    expect(engine).toBeInstanceOf(ComfyUIEngine);
    expect(engine.name).toBe('comfyui');
    (engine as ComfyUIEngine).close();
    expect(() => createEngine({ engine: 'comfyui', builtinUpscaler: 'lanczos' })).toThrow(
      'ENGINE=comfyui needs COMFYUI_URLS',
    );
  });
});
