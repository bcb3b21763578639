/**
 * What makes images: the builtin CPU engine or ComfyUI GPU servers (DESIGN §5). The job runner
 * calls an engine; the engine writes its result to `outputPath` (a temporary name the runner
 * then renames into place and records), reports progress from 0 to 100 and stops on `signal`.
 */
export interface Engine {
  readonly name: string;
  generate(
    params: GenerateParams,
    progress: ProgressReporter,
    signal: AbortSignal,
  ): Promise<GeneratedImage>;
}

export type ProgressReporter = (percent: number) => void;

/** A preview (LD) generation: the form of SPEC §3, read off the multipart request. */
export interface GenerateParams {
  /** The stored reference image (any accepted upload format: png, jpeg, bmp, gif, webp). */
  referencePath: string;
  /** Where to write the result, as PNG. */
  outputPath: string;
  /** The output format's size (contract OUTPUT_FORMATS). */
  width: number;
  height: number;
  /** An unsigned 32-bit seed: same inputs and seed give identical pixels. */
  seed: number;
  /** The result tiles with no visible seam in both directions. */
  seamless: boolean;
  /** Use the reference's alpha channel to choose the region synthesis may copy from. */
  mask: boolean;
  /** ksampler_denoise, 0..1: how closely the layout follows the reference. */
  similarity: number;
  /** ksampler_cfg, 0..20. */
  imaginationWeight: number;
  /** ipadapter_weight, 0..2. */
  promptAdherence: number;
  /** style, 0..1 (style weight / 100). */
  style: number;
  positivePrompt: string;
  negativePrompt: string;
}

export interface GeneratedImage {
  width: number;
  height: number;
}

/** An image as raw 8-bit RGBA pixels, row by row. */
export interface RawImage {
  data: Uint8Array;
  width: number;
  height: number;
}
