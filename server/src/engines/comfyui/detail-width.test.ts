import { hdFactorsFor } from '@tessera/contract';
import { describe, expect, it } from 'vitest';
import type { ComfyWorkflow } from './api-types.js';
import { hdDetailWidth } from './detail-width.js';
import { fillHd, HD_NODES, loadWorkflowTemplates } from './workflows.js';

const templates = loadWorkflowTemplates();

/** The shipped HD template filled for a Rectangle LD image (1448 × 724) at `size`. */
function shippedPrompt(size: '30x60' | '120x240'): ComfyWorkflow {
  const factors = hdFactorsFor(size);
  if (!factors) throw new Error(`no factors for ${size}`);
  return fillHd(templates.hd, {
    sourceImage: 'ld.png',
    sourceWidth: 1448,
    sourceHeight: 724,
    ...factors,
    seed: 1,
    seamless: false,
  });
}

describe('hdDetailWidth', () => {
  it("reads the shipped template's last generating stage: CR Upscale Image 701 of the LD size", () => {
    // 1448 × 1.5 = 2172 (then ImageScaleBy 1.9 enlarges it to 4127).
    expect(hdDetailWidth(shippedPrompt('30x60'), 1448)).toBe(2172);
    // 1448 × 2.82 = 4083.36, truncated as Comfyroll does: 4083 (the HD is 16 332 px wide).
    expect(hdDetailWidth(shippedPrompt('120x240'), 1448)).toBe(4083);
  });

  it('counts a resize-mode upscale to its width, rounded up to the modulus', () => {
    const prompt = shippedPrompt('30x60');
    const cr701 = prompt[HD_NODES.cr701.id];
    if (!cr701) throw new Error('no node 701');
    cr701.inputs = { ...cr701.inputs, mode: 'resize', resize_width: 2170, rounding_modulus: 8 };
    expect(hdDetailWidth(prompt, 1448)).toBe(2176);
  });

  it('knows nothing of a template whose last stage is not the shipped one', () => {
    // The output straight from a model upscale of unknown scale.
    const modelOnly: ComfyWorkflow = {
      ...shippedPrompt('30x60'),
      '900': { class_type: 'UpscaleModelLoader', inputs: { model_name: '4x.pth' } },
      '901': {
        class_type: 'ImageUpscaleWithModel',
        inputs: { upscale_model: ['900', 0], image: ['10', 0] },
      },
      '9': { class_type: 'SaveImage', inputs: { images: ['901', 0], filename_prefix: 'hd' } },
    };
    expect(hdDetailWidth(modelOnly, 1448)).toBeUndefined();

    // 701 fed by the detail pass itself (no ImageScale 712 to the LD size): its width is the
    // sampler's, which the prompt does not state.
    const without712 = Object.fromEntries(
      Object.entries(shippedPrompt('30x60')).filter(([id]) => id !== HD_NODES.ldSize.id),
    );
    const cr701 = without712[HD_NODES.cr701.id];
    if (!cr701) throw new Error('no node 701');
    cr701.inputs = { ...cr701.inputs, image: ['721', 0] };
    expect(hdDetailWidth(without712, 1448)).toBeUndefined();
  });

  it('stops on a loop of resamples rather than walking it for ever', () => {
    const loop: ComfyWorkflow = {
      '1': { class_type: 'ImageScaleBy', inputs: { image: ['2', 0], scale_by: 2 } },
      '2': { class_type: 'ImageScaleBy', inputs: { image: ['1', 0], scale_by: 2 } },
      '9': { class_type: 'SaveImage', inputs: { images: ['1', 0], filename_prefix: 'hd' } },
    };
    expect(hdDetailWidth(loop, 1448)).toBeUndefined();
  });
});
