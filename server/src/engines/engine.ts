import type { HdFactors, PreviewSettings } from '@tessera/contract';
import type { HdEncoding } from '../imaging/hd-encodings.js';
import type { RemotePrompt } from '../jobs/job.js';

// The remote prompt is the job's (it is stored with it); engines name it too, as queuing one is theirs.
export type { RemotePrompt };

/** The engines the server can run (ENGINE), named once. */
export const ENGINE_NAMES = ['builtin', 'comfyui'] as const;

/** With `mask`, a reference pixel whose alpha is at least this may be copied; every engine agrees. */
export const MASK_ALPHA_THRESHOLD = 128;

/**
 * What makes images: the builtin CPU engine or ComfyUI GPU servers (DESIGN §5). The job runner
 * calls an engine; the engine writes its result to `outputPath` (a temporary name the runner
 * then renames into place and records), reports progress from 0 to 100 and stops on `signal`.
 */
export interface Engine {
  /** Recorded in each image's metadata: one of ENGINE_NAMES (a test's stand-in names itself). */
  readonly name: string;
  generate(
    params: GenerateParams,
    progress: ProgressReporter,
    signal: AbortSignal,
  ): Promise<GeneratedImage>;
  /**
   * An HD version of an LD image at an exact pixel size (the HD pipeline of SPEC §4), and how
   * wide the detail its network generated is (issue 26, honest detail).
   */
  upscale(
    params: UpscaleParams,
    progress: ProgressReporter,
    signal: AbortSignal,
  ): Promise<UpscaledImage>;
  /** Checks its servers at start (ENGINE=comfyui): their state, as health() tells it. */
  start?(): Promise<EngineHealth>;
  /** For GET /api/health: whether the engine can take work, and its servers (ENGINE=comfyui). */
  health?(): Promise<EngineHealth>;
  /** Each image server's state as last seen, without asking it (for metrics); none: no servers. */
  serverStates?(): string[];
  /** Releases timers and connections when the server stops. */
  close?(): void;
}

/** What an engine tells GET /api/health. */
export interface EngineHealth {
  /** False when the engine cannot take work now (every ComfyUI server down). */
  ok: boolean;
  servers?: EngineServerHealth[];
}

/** One image server as an engine sees it (ComfyUI: one entry of COMFYUI_URLS). */
export interface EngineServerHealth {
  /** The base URL, credentials removed. */
  url: string;
  /**
   * 'down': left out after a failure until `nextCheckAt`; 'checking': being asked again;
   * 'incomplete': it answers but lacks node types or models the templates need (`missing`), so
   * it gets no jobs until a check finds them; 'failing': it answers but its prompts keep failing
   * while running (`lastError` says how), so it gets no jobs until `nextCheckAt`, then on trial.
   */
  state: 'up' | 'down' | 'checking' | 'incomplete' | 'failing';
  /** What the server lacks for the templates ("node type CR Upscale Image", "model ..."). */
  missing: string[];
  /** The ComfyUI version its /system_stats reports, when known. */
  version: string | null;
  /** Prompts waiting or running on the server by its own count, when last asked. */
  queueRemaining: number | null;
  /** Tessera's jobs on it now. */
  activeJobs: number;
  lastError: string | null;
  lastErrorAt: string | null;
  lastCheckedAt: string | null;
  nextCheckAt: string | null;
}

export type ProgressReporter = (percent: number) => void;

/** The job's side of remote prompts. */
export interface RemoteWork {
  /** The prompt an earlier run of this job queued and did not see to its end. */
  previous?: RemotePrompt;
  /** Called (and awaited) once the engine has queued its prompt: the job stores it. */
  queued(prompt: RemotePrompt): Promise<void>;
}

/** A preview (LD) generation: the settings of SPEC §3's form, and where to read and write. */
export interface GenerateParams extends PreviewSettings {
  /** The stored reference image (any accepted upload format: png, jpeg, bmp, gif, webp). */
  referencePath: string;
  /** Where to write the result, as PNG (a series: face 1, the same as `seriesPaths[0]`). */
  outputPath: string;
  /**
   * A series of faces (issue 25): where to write each face, face 1 first, one path per face
   * (2 to GENERATION_RANGES.faces.max). The faces are one design; seamless, any face joins any
   * face on all four sides. Absent: one image, at `outputPath`.
   */
  seriesPaths?: readonly string[];
  /** Engines on remote servers note their prompt here (and pick it up after a restart). */
  remote?: RemoteWork;
}

/** An HD (upscale) job: the LD image, the size ordered, and where the result goes. */
export interface UpscaleParams {
  /** The stored LD image (PNG as the engines write it, or anything refresh indexed). */
  sourcePath: string;
  /** Where to write the result; its name ends in the encoding's extension. */
  outputPath: string;
  /** How to encode the result: a row of HD_ENCODINGS (imaging/hd-encodings.ts). */
  encoding: HdEncoding;
  /** The exact target size: contract hdTargetSize (LD size x cr701 x image692). */
  width: number;
  height: number;
  /** The four factors of the ordered size (contract HD_SIZES), as the command carried them. */
  factors: HdFactors;
  /** The LD image's seed (for engines whose upscaler samples, such as ComfyUI's KSampler). */
  seed: number;
  /** The LD image tiles: the upscaler pads by wrapping so the result tiles too. */
  seamless: boolean;
  /** Engines on remote servers note their prompt here (and pick it up after a restart). */
  remote?: RemoteWork;
}

export interface GeneratedImage {
  width: number;
  height: number;
  /**
   * What the engine adds to each image's metadata beside the settings (issue 27: the builtin
   * engine's understood prompt terms and the synthesis mode it used).
   */
  metadata?: Record<string, unknown>;
}

/** What an upscale made: its size, and the width of the detail the engine generated. */
export interface UpscaledImage extends GeneratedImage {
  /**
   * The pixel width of the image the engine's network generated before the final resample, at
   * most `width` (a larger network output resampled down keeps only `width` of it); the HD
   * service records it as HD_DETAIL_WIDTH_KEY. Absent where the engine cannot know it (a
   * ComfyUI template whose last stages are not the shipped ones).
   */
  detailWidth?: number;
}
