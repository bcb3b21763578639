/**
 * The nodes of the workflow templates the adapter fills, by node id and input name
 * (docs/comfyui.md lists them): workflows.ts checks each template has them and fills them.
 */

export type TemplateName = 'preview' | 'hd' | 'series';

/** A node the adapter writes to: its id, the inputs it sets, what it is for (for errors and docs). */
export interface NodeBinding {
  id: string;
  /** The class the shipped template uses there (the message names it when the node is missing). */
  classType: string;
  inputs: readonly string[];
  purpose: string;
  /** An optional node is filled when present and may be left out of a replacement template. */
  optional?: boolean;
}

/** Nodes of the preview template. */
export const PREVIEW_NODES = {
  reference: {
    id: '12',
    classType: 'LoadImage',
    inputs: ['image'],
    purpose: 'the reference image',
  },
  adherence: {
    id: '600',
    classType: 'IPAdapterAdvanced',
    inputs: ['weight'],
    purpose: 'prompt adherence (ipadapter_weight)',
  },
  style: {
    id: '601',
    classType: 'IPAdapterAdvanced',
    inputs: ['weight'],
    purpose: 'the style weight (style)',
    optional: true,
  },
  positive: {
    id: '585',
    classType: 'CLIPTextEncode',
    inputs: ['text'],
    purpose: 'the positive prompt (cliptextencode_585)',
  },
  negative: {
    id: '716',
    classType: 'CLIPTextEncode',
    inputs: ['text'],
    purpose: 'the negative prompt (cliptextencode_716)',
  },
  size: {
    id: '5',
    classType: 'ImageScale',
    inputs: ['width', 'height'],
    purpose: "the latent at the format's size (latent_width, latent_height)",
  },
  sampler: {
    id: '3',
    classType: 'KSampler',
    inputs: ['seed', 'cfg', 'denoise'],
    purpose: 'the sampler (ksampler_cfg, ksampler_denoise, seed)',
  },
  seamlessModel: {
    id: '720',
    classType: 'SeamlessTile',
    inputs: ['tiling'],
    purpose: 'seamless tiling (seamless)',
  },
  circularVae: {
    id: '721',
    classType: 'CircularVAEDecode',
    inputs: ['tiling'],
    purpose: 'the circular VAE decode (circularVAE)',
  },
  output: { id: '9', classType: 'SaveImage', inputs: [], purpose: 'the image Tessera downloads' },
} as const satisfies Record<string, NodeBinding>;

/** Nodes of the HD template. */
export const HD_NODES = {
  source: { id: '10', classType: 'LoadImage', inputs: ['image'], purpose: 'the LD image' },
  cr711: {
    id: '711',
    classType: 'CR Upscale Image',
    inputs: ['rescale_factor'],
    purpose: 'rescale_factor_cr711',
  },
  latent707: {
    id: '707',
    classType: 'LatentUpscaleBy',
    inputs: ['scale_by'],
    purpose: 'scale_by_latent707',
  },
  sampler: {
    id: '3',
    classType: 'KSampler',
    inputs: ['seed'],
    purpose: "the detail pass sampler (the LD image's seed)",
  },
  seamlessModel: {
    id: '720',
    classType: 'SeamlessTile',
    inputs: ['tiling'],
    purpose: 'seamless tiling',
  },
  circularVae: {
    id: '721',
    classType: 'CircularVAEDecode',
    inputs: ['tiling'],
    purpose: 'the circular VAE decode',
  },
  ldSize: {
    id: '712',
    classType: 'ImageScale',
    inputs: ['width', 'height'],
    purpose: 'the detail pass brought back to the LD size',
    optional: true,
  },
  cr701: {
    id: '701',
    classType: 'CR Upscale Image',
    inputs: ['rescale_factor'],
    purpose: 'rescale_factor_cr701',
  },
  image692: {
    id: '692',
    classType: 'ImageScaleBy',
    inputs: ['scale_by'],
    purpose: 'scale_by_image692',
  },
  output: { id: '9', classType: 'SaveImage', inputs: [], purpose: 'the image Tessera downloads' },
} as const satisfies Record<string, NodeBinding>;

/**
 * Nodes of the series template (faces 2..N of a series, issue 25): face 1 uploaded, its outer
 * band kept by a mask (SolidMask 0 with a feathered SolidMask 1 added inside it), the interior
 * repainted through SetLatentNoiseMask, and face 1 pasted back under the band
 * (ImageCompositeMasked), so every face has face 1's edges. The mask's geometry is Tessera's
 * (workflows.ts seriesMask); the prompts, IPAdapter and tiling are filled as in the preview.
 */
export const SERIES_NODES = {
  face: {
    id: '12',
    classType: 'LoadImage',
    inputs: ['image'],
    purpose: "face 1 (its border is every face's border)",
  },
  adherence: { ...PREVIEW_NODES.adherence },
  style: { ...PREVIEW_NODES.style },
  positive: { ...PREVIEW_NODES.positive },
  negative: { ...PREVIEW_NODES.negative },
  frame: {
    id: '800',
    classType: 'SolidMask',
    inputs: ['width', 'height'],
    purpose: 'the mask, 0 (kept) over the whole latent',
  },
  interior: {
    id: '801',
    classType: 'SolidMask',
    inputs: ['width', 'height'],
    purpose: 'the interior to repaint, 1',
  },
  feather: {
    id: '802',
    classType: 'FeatherMask',
    inputs: ['left', 'top', 'right', 'bottom'],
    purpose: "the interior's soft edge",
  },
  mask: {
    id: '803',
    classType: 'MaskComposite',
    inputs: ['x', 'y'],
    purpose: 'the interior placed inside the band',
  },
  sampler: {
    id: '3',
    classType: 'KSampler',
    inputs: ['seed', 'cfg'],
    purpose: "the interior's sampler (the face's seed, ksampler_cfg)",
  },
  seamlessModel: { ...PREVIEW_NODES.seamlessModel },
  circularVae: { ...PREVIEW_NODES.circularVae },
  paste: {
    id: '805',
    classType: 'ImageCompositeMasked',
    inputs: ['x', 'y'],
    purpose: "the repainted face over face 1, where VAEEncode's crop took it from",
  },
  output: { ...PREVIEW_NODES.output },
} as const satisfies Record<string, NodeBinding>;

export const TEMPLATE_NODES: Record<TemplateName, Record<string, NodeBinding>> = {
  preview: PREVIEW_NODES,
  hd: HD_NODES,
  series: SERIES_NODES,
};
