/**
 * ComfyUI's core mask and inpainting nodes (comfy_extras/nodes_mask.py, nodes.py), as v0.3.68's
 * /object_info describes them: what the series template uses (issue 25) and the usual
 * alternatives (VAEEncodeForInpaint, ImageToMask, InvertMask, MaskToImage).
 */
import type { InputSpec, NodeClass } from './node-classes.js';

const MAX_RESOLUTION = 16384;
const link = (type: string): InputSpec => ({ kind: 'link', type });
const int = (min: number, max: number): InputSpec => ({ kind: 'INT', min, max });
const float = (min: number, max: number): InputSpec => ({ kind: 'FLOAT', min, max });
const combo = (values: string[]): InputSpec => ({ kind: 'COMBO', values: () => values });
const position = int(0, MAX_RESOLUTION);
const side = int(1, MAX_RESOLUTION);

export const MASK_CLASSES: Record<string, NodeClass> = {
  SolidMask: {
    required: { value: float(0, 1), width: side, height: side },
    returns: ['MASK'],
    category: 'mask',
  },
  FeatherMask: {
    required: {
      mask: link('MASK'),
      left: position,
      top: position,
      right: position,
      bottom: position,
    },
    returns: ['MASK'],
    category: 'mask',
  },
  MaskComposite: {
    required: {
      destination: link('MASK'),
      source: link('MASK'),
      x: position,
      y: position,
      operation: combo(['multiply', 'add', 'subtract', 'and', 'or', 'xor']),
    },
    returns: ['MASK'],
    category: 'mask',
  },
  InvertMask: { required: { mask: link('MASK') }, returns: ['MASK'], category: 'mask' },
  ImageToMask: {
    required: { image: link('IMAGE'), channel: combo(['red', 'green', 'blue', 'alpha']) },
    returns: ['MASK'],
    category: 'mask',
  },
  MaskToImage: { required: { mask: link('MASK') }, returns: ['IMAGE'], category: 'mask' },
  SetLatentNoiseMask: {
    required: { samples: link('LATENT'), mask: link('MASK') },
    returns: ['LATENT'],
    category: 'latent/inpaint',
  },
  VAEEncodeForInpaint: {
    required: {
      pixels: link('IMAGE'),
      vae: link('VAE'),
      mask: link('MASK'),
      grow_mask_by: int(0, 64),
    },
    returns: ['LATENT'],
    category: 'latent/inpaint',
  },
  ImageCompositeMasked: {
    required: {
      destination: link('IMAGE'),
      source: link('IMAGE'),
      x: position,
      y: position,
      resize_source: { kind: 'BOOLEAN' },
    },
    optional: { mask: link('MASK') },
    returns: ['IMAGE'],
    category: 'image',
  },
};
