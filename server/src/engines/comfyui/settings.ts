/**
 * The ComfyUI engine's settings (COMFYUI_*) as config.ts reads them from the environment: the
 * engine takes these, not the server's whole configuration (engines/index.ts maps them to its
 * options).
 */
import type { ComfyAuth } from './client.js';

export interface ComfyUISettings {
  /** COMFYUI_URLS: the servers jobs are spread over. */
  urls: string[];
  /** COMFYUI_WORKFLOWS_DIR: the operator's own templates; unset: the shipped ones. */
  workflowsDir?: string;
  /** How Tessera proves itself to a proxy in front of ComfyUI. */
  auth: ComfyAuth;
  requestTimeoutMs: number;
  socketTimeoutMs: number;
  transferIdleTimeoutMs: number;
  /** A prompt's execution deadline; 0: none. */
  promptDeadlineMs: number;
  /** How long a job rides out its servers' outages before it fails; 0: fails at once. */
  outageWindowMs: number;
  /** Prompts failing while running, one after the other, that make a server `failing`. */
  failingAfter: number;
  /** How long a `failing` server gets no jobs before it is given one on trial. */
  failingPauseMs: number;
  /** The first pause before a server that stopped answering is asked again (it then doubles). */
  probeBackoffMs: number;
  /** The longest such pause. */
  probeBackoffMaxMs: number;
}
