/**
 * The node classes the stand-in knows (ComfyUI's core ones Tessera uses and the custom nodes of
 * docs/comfyui.md): their inputs with types and limits, their outputs and categories.
 */
import { MASK_CLASSES } from './mask-classes.js';

export type InputSpec =
  | { kind: 'link'; type: string }
  | { kind: 'INT' | 'FLOAT'; min?: number; max?: number }
  | { kind: 'STRING' }
  | { kind: 'BOOLEAN' }
  | { kind: 'COMBO'; values: (installed: InstalledFiles) => string[] };

export interface NodeClass {
  required: Record<string, InputSpec>;
  optional?: Record<string, InputSpec>;
  returns: string[];
  output?: boolean;
  category: string;
  /** Written with ComfyUI's v3 node API: /object_info gives its lists as ["COMBO", {options}]. */
  v3?: boolean;
}

/** What the server has: its node classes, the files a COMBO input can name, its images. */
export interface InstalledFiles {
  checkpoints: string[];
  upscaleModels: string[];
  ipadapterModels: string[];
  clipVisionModels: string[];
  inputFiles: string[];
  /** Whether a LoadImage value ("sub/name.png", "sub/name.png [temp]") names a file. */
  imageExists(name: string): boolean;
  /** The node classes it has (NODE_CLASSES less the packs not installed). */
  classes: Record<string, NodeClass>;
}

const link = (type: string): InputSpec => ({ kind: 'link', type });
const int = (min?: number, max?: number): InputSpec => ({ kind: 'INT', min, max });
const float = (min?: number, max?: number): InputSpec => ({ kind: 'FLOAT', min, max });
const combo = (values: string[] | ((installed: InstalledFiles) => string[])): InputSpec => ({
  kind: 'COMBO',
  values: typeof values === 'function' ? values : () => values,
});
const text: InputSpec = { kind: 'STRING' };

const MAX_RESOLUTION = 16384;
/** KSampler's lists as ComfyUI v0.3.68 offers them (comfy/samplers.py). */
const SAMPLERS = [
  'euler',
  'euler_cfg_pp',
  'euler_ancestral',
  'euler_ancestral_cfg_pp',
  'heun',
  'heunpp2',
  'dpm_2',
  'dpm_2_ancestral',
  'lms',
  'dpm_fast',
  'dpm_adaptive',
  'dpmpp_2s_ancestral',
  'dpmpp_2s_ancestral_cfg_pp',
  'dpmpp_sde',
  'dpmpp_sde_gpu',
  'dpmpp_2m',
  'dpmpp_2m_cfg_pp',
  'dpmpp_2m_sde',
  'dpmpp_2m_sde_gpu',
  'dpmpp_2m_sde_heun',
  'dpmpp_2m_sde_heun_gpu',
  'dpmpp_3m_sde',
  'dpmpp_3m_sde_gpu',
  'ddpm',
  'lcm',
  'ipndm',
  'ipndm_v',
  'deis',
  'res_multistep',
  'res_multistep_cfg_pp',
  'res_multistep_ancestral',
  'res_multistep_ancestral_cfg_pp',
  'gradient_estimation',
  'gradient_estimation_cfg_pp',
  'er_sde',
  'seeds_2',
  'seeds_3',
  'sa_solver',
  'sa_solver_pece',
  'ddim',
  'uni_pc',
  'uni_pc_bh2',
];
const SCHEDULERS = [
  'simple',
  'sgm_uniform',
  'karras',
  'exponential',
  'ddim_uniform',
  'beta',
  'normal',
  'linear_quadratic',
  'kl_optimal',
];
const IMAGE_METHODS = ['nearest-exact', 'bilinear', 'area', 'bicubic', 'lanczos'];
const LATENT_METHODS = ['nearest-exact', 'bilinear', 'area', 'bicubic', 'bislerp'];
const TILING = ['enable', 'x_only', 'y_only', 'disable'];
const IPADAPTER_WEIGHT_TYPES = [
  'linear',
  'ease in',
  'ease out',
  'ease in-out',
  'reverse in-out',
  'weak input',
  'weak output',
  'weak middle',
  'strong middle',
  'style transfer',
  'composition',
  'strong style transfer',
  'style and composition',
  'style transfer precise',
  'composition precise',
];
const IPADAPTER_PRESETS = [
  'LIGHT - SD1.5 only (low strength)',
  'STANDARD (medium strength)',
  'VIT-G (medium strength)',
  'PLUS (high strength)',
  'PLUS FACE (portraits)',
  'FULL FACE - SD1.5 only (portraits stronger)',
];

export const NODE_CLASSES: Record<string, NodeClass> = {
  CheckpointLoaderSimple: {
    required: { ckpt_name: combo((s) => s.checkpoints) },
    returns: ['MODEL', 'CLIP', 'VAE'],
    category: 'loaders',
  },
  CLIPTextEncode: {
    required: { text, clip: link('CLIP') },
    returns: ['CONDITIONING'],
    category: 'conditioning',
  },
  EmptyLatentImage: {
    required: {
      width: int(16, MAX_RESOLUTION),
      height: int(16, MAX_RESOLUTION),
      batch_size: int(1, 4096),
    },
    returns: ['LATENT'],
    category: 'latent',
  },
  KSampler: {
    required: {
      model: link('MODEL'),
      // 0xffffffffffffffff, as a JavaScript number reads it from ComfyUI's JSON.
      seed: int(0, 2 ** 64),
      steps: int(1, 10000),
      cfg: float(0, 100),
      sampler_name: combo(SAMPLERS),
      scheduler: combo(SCHEDULERS),
      positive: link('CONDITIONING'),
      negative: link('CONDITIONING'),
      latent_image: link('LATENT'),
      denoise: float(0, 1),
    },
    returns: ['LATENT'],
    category: 'sampling',
  },
  VAEDecode: {
    required: { samples: link('LATENT'), vae: link('VAE') },
    returns: ['IMAGE'],
    category: 'latent',
  },
  VAEEncode: {
    required: { pixels: link('IMAGE'), vae: link('VAE') },
    returns: ['LATENT'],
    category: 'latent',
  },
  LoadImage: {
    required: { image: combo((s) => s.inputFiles) },
    returns: ['IMAGE', 'MASK'],
    category: 'image',
  },
  SaveImage: {
    required: { images: link('IMAGE'), filename_prefix: text },
    returns: [],
    output: true,
    category: 'image',
  },
  PreviewImage: {
    required: { images: link('IMAGE') },
    returns: [],
    output: true,
    category: 'image',
  },
  LatentUpscaleBy: {
    required: {
      samples: link('LATENT'),
      upscale_method: combo(LATENT_METHODS),
      scale_by: float(0.01, 8),
    },
    returns: ['LATENT'],
    category: 'latent',
  },
  ImageScale: {
    required: {
      image: link('IMAGE'),
      upscale_method: combo(IMAGE_METHODS),
      width: int(0, MAX_RESOLUTION),
      height: int(0, MAX_RESOLUTION),
      crop: combo(['disabled', 'center']),
    },
    returns: ['IMAGE'],
    category: 'image/upscaling',
  },
  ImageScaleBy: {
    required: {
      image: link('IMAGE'),
      upscale_method: combo(IMAGE_METHODS),
      scale_by: float(0.01, 8),
    },
    returns: ['IMAGE'],
    category: 'image/upscaling',
  },
  UpscaleModelLoader: {
    required: { model_name: combo((s) => s.upscaleModels) },
    returns: ['UPSCALE_MODEL'],
    category: 'loaders',
    v3: true,
  },
  ImageUpscaleWithModel: {
    required: { upscale_model: link('UPSCALE_MODEL'), image: link('IMAGE') },
    returns: ['IMAGE'],
    category: 'image/upscaling',
  },
  CLIPVisionLoader: {
    required: { clip_name: combo((s) => s.clipVisionModels) },
    returns: ['CLIP_VISION'],
    category: 'loaders',
  },
  // ComfyUI_IPAdapter_plus
  IPAdapterModelLoader: {
    required: { ipadapter_file: combo((s) => s.ipadapterModels) },
    returns: ['IPADAPTER'],
    category: 'ipadapter/loaders',
  },
  IPAdapterUnifiedLoader: {
    required: { model: link('MODEL'), preset: combo(IPADAPTER_PRESETS) },
    optional: { ipadapter: link('IPADAPTER') },
    returns: ['MODEL', 'IPADAPTER'],
    category: 'ipadapter',
  },
  IPAdapterAdvanced: {
    required: {
      model: link('MODEL'),
      ipadapter: link('IPADAPTER'),
      image: link('IMAGE'),
      weight: float(-1, 5),
      weight_type: combo(IPADAPTER_WEIGHT_TYPES),
      combine_embeds: combo(['concat', 'add', 'subtract', 'average', 'norm average']),
      start_at: float(0, 1),
      end_at: float(0, 1),
      embeds_scaling: combo(['V only', 'K+V', 'K+V w/ C penalty', 'K+mean(V) w/ C penalty']),
    },
    optional: {
      image_negative: link('IMAGE'),
      attn_mask: link('MASK'),
      clip_vision: link('CLIP_VISION'),
    },
    returns: ['MODEL'],
    category: 'ipadapter',
  },
  // comfyui-seamless-tiling (spinagon)
  SeamlessTile: {
    required: {
      model: link('MODEL'),
      tiling: combo(TILING),
      copy_model: combo(['Make a copy', 'Modify in place']),
    },
    returns: ['MODEL'],
    category: 'conditioning',
  },
  CircularVAEDecode: {
    required: { samples: link('LATENT'), vae: link('VAE'), tiling: combo(TILING) },
    returns: ['IMAGE'],
    category: 'latent',
  },
  // ComfyUI_Comfyroll_CustomNodes
  'CR Upscale Image': {
    required: {
      image: link('IMAGE'),
      upscale_model: combo((s) => s.upscaleModels),
      mode: combo(['rescale', 'resize']),
      rescale_factor: float(0.01, 16),
      resize_width: int(1, 48000),
      resampling_method: combo(['lanczos', 'nearest', 'bilinear', 'bicubic']),
      supersample: combo(['true', 'false']),
      rounding_modulus: int(8, 1024),
    },
    returns: ['IMAGE', 'STRING'],
    category: 'Comfyroll/Upscale',
  },
  ...MASK_CLASSES,
};

/** The node classes of a server without the named ones (custom node packs not installed). */
export function availableClasses(without: string[]): Record<string, NodeClass> {
  return Object.fromEntries(
    Object.entries(NODE_CLASSES).filter(([name]) => !without.includes(name)),
  );
}

/** A node's class (validation has made sure it is known). */
export function classOf(node: { class_type: string } | undefined): NodeClass {
  const spec = node ? NODE_CLASSES[node.class_type] : undefined;
  if (!spec) throw new Error(`Unknown node class ${String(node?.class_type)}`);
  return spec;
}
