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
  /** models/ipadapter/ (IPAdapterModelLoader's list; the unified loader picks from it). */
  ipadapterModels?: string[];
  /** models/clip_vision/ (CLIPVisionLoader's list; the unified loader picks from it). */
  clipVisionModels?: string[];
  /** Node types it lacks (a custom node pack not installed): e.g. ['CR Upscale Image']. */
  withoutNodes?: string[];
  /** Send binary preview frames at each sampler step (ComfyUI's --preview-method; off by default). */
  previews?: boolean;
  /** The upload size limit, bytes (ComfyUI's --max-upload-size, 100 MB by default): 413 above. */
  maxUploadBytes?: number;
  /**
   * A websocket message ComfyUI fails to send (it logs and drops send errors): return true to
   * drop it. `sid` is the client it was for.
   */
  dropMessage?: (message: { type: string; data: unknown }, sid: string | undefined) => boolean;
  /**
   * GET /view sends the file in chunks of `chunkBytes` with `pauseMs` between them (a slow link);
   * with `stallAfterBytes` it stops sending there, the connection left open (a hung transfer).
   */
  slowView?: { chunkBytes: number; pauseMs: number; stallAfterBytes?: number };
  /** A reverse proxy's check in front of it: requests without this header or query answer 401. */
  requireAuth?: {
    header?: { name: string; value: string };
    query?: { name: string; value: string };
  };
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
  /** The client id of every websocket connection, in order. */
  readonly socketClients: string[];
  /** Every HTTP request, in order. */
  readonly requests: StandInRequest[];
  /** Files POST /upload/image stored. */
  readonly uploads: { name: string; subfolder: string; type: string; bytes: number }[];
  /**
   * 'prompt' (ReceivedPrompt), 'executing' ({prompt_id, node}), 'progress' ({prompt_id, node,
   * value, max}), 'done' ({prompt_id, status: 'success' | 'error' | 'interrupted'}),
   * 'request' (StandInRequest, as recorded), 'connected' ({sid}: a websocket opened and greeted),
   * 'disconnected' ({sid}: a websocket closed and the server has forgotten its client id).
   */
  readonly events: EventEmitter;
  /**
   * Resolves once `check` holds: at once, or after the event that made it so (any of `events`'),
   * so a test waits on what the stand-in saw without polling.
   */
  until(check: () => boolean): Promise<void>;
  /** Prompts queued and running now (GET /prompt's queue_remaining). */
  queueRemaining(): number;
  /** Hold the queue: the running prompt finishes, the next ones wait. */
  pause(): void;
  resume(): void;
  /** The folders it reads and writes (input, output, temp), as ComfyUI's own. */
  readonly folders: { input: string; output: string; temp: string };
  /** Stops executing prompts at the start of this node until release() (or an interrupt). */
  holdAt(nodeId: string): void;
  release(): void;
  /** An operator deletes a model file: gone from /object_info and from what prompts can load. */
  removeModel(name: string): void;
  /** Cuts every websocket (as a proxy restart or a network blip does); the server stays. */
  dropSockets(): void;
  /** Goes away as a crashed server: every connection cut, the port closed, no more events. */
  crash(): Promise<void>;
  /** Stops and removes its files. */
  close(): Promise<void>;
}
