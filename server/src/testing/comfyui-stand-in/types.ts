/** The stand-in's options and the handle startComfyStandIn gives back. */
import type { EventEmitter } from 'node:events';
import type { ComfyWorkflow } from '../../engines/comfyui/api-types.js';

export interface ComfyStandInOptions {
  host?: string;
  /** 0 (default): a free port. */
  port?: number;
  /** The checkpoint files it has (CheckpointLoaderSimple's ckpt_name list). */
  checkpoints?: string[];
  /** The upscale model files it has (CR Upscale Image's and UpscaleModelLoader's lists). */
  upscaleModels?: string[];
  /** Time per sampling step, ms (default 2). */
  stepDelayMs?: number;
  /** Sampling steps reported at most per sampler (its `steps` input, capped; default 8). */
  maxSteps?: number;
  /** Running this node id fails the prompt with execution_error. */
  failAtNode?: string;
  /** Start with the queue held: prompts wait until resume(). */
  paused?: boolean;
}

/** A prompt POST /prompt accepted. */
export interface ReceivedPrompt {
  prompt_id: string;
  number: number;
  client_id: string | undefined;
  prompt: ComfyWorkflow;
}

export interface StandInRequest {
  method: string;
  /** Path and query as received. */
  path: string;
  /** The JSON body, for JSON requests. */
  body?: unknown;
}

export interface ComfyStandIn {
  url: string;
  port: number;
  /** The prompts POST /prompt accepted, in order (assert on their inputs). */
  readonly prompts: ReceivedPrompt[];
  /** POST /prompt bodies refused with a 400, with the answer given. */
  readonly refused: { body: unknown; answer: unknown }[];
  /** Every HTTP request, in order. */
  readonly requests: StandInRequest[];
  /** Files POST /upload/image stored. */
  readonly uploads: { name: string; subfolder: string; type: string; bytes: number }[];
  /**
   * 'prompt' (ReceivedPrompt), 'executing' ({prompt_id, node}), 'progress' ({prompt_id, node,
   * value, max}), 'done' ({prompt_id, status: 'success' | 'error' | 'interrupted'}).
   */
  readonly events: EventEmitter;
  /** Prompts queued and running now (GET /prompt's queue_remaining). */
  queueRemaining(): number;
  /** Hold the queue: the running prompt finishes, the next ones wait. */
  pause(): void;
  resume(): void;
  /** Goes away as a crashed server: every connection cut, the port closed, no more events. */
  crash(): Promise<void>;
  /** Stops and removes its files. */
  close(): Promise<void>;
}
