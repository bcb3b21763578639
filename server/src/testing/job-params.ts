import type { HdJobParams, PreviewJobParams } from '../jobs/job.js';

/** Params of a preview job, for queue and runner tests whose handlers do not read them. */
export const PREVIEW_PARAMS: PreviewJobParams = {
  owner: { id: 1, username: 'ann' },
  inputFile: 'reference.png',
  originalName: 'reference.png',
  positivePrompt: 'brick wall',
  negativePrompt: '',
  imaginationWeight: 7,
  similarity: 0.5,
  promptAdherence: 0.5,
  style: 0,
  seed: 1,
  width: 512,
  height: 512,
  seamless: true,
  mask: false,
};

/** Params of an HD job, likewise. */
export const HD_PARAMS: HdJobParams = {
  owner: { id: 1, username: 'ann' },
  image: 'tile.png',
  size: '30x30',
  factors: {
    rescale_factor_cr711: 1,
    scale_by_latent707: 1,
    rescale_factor_cr701: 1,
    scale_by_image692: 1,
  },
  seed: 1,
};
