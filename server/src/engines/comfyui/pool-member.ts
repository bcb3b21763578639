/**
 * One ComfyUI server of the pool (pool.ts) and what the pool knows of it: its state, its load,
 * its failures, when it is checked again.
 */
import type { ComfyClient } from './client.js';

/**
 * 'up': takes jobs. 'down': does not answer (left out until `nextCheckAt`). 'checking': being
 * asked again. 'incomplete': answers but lacks node types or models the templates need.
 * 'failing': answers, but its last prompts failed while running (a broken model file): left out
 * until `nextCheckAt`, then given jobs again on trial.
 */
export type ServerState = 'up' | 'down' | 'checking' | 'incomplete' | 'failing';

export interface PoolOptions {
  /**
   * The pause before a server that stopped answering is asked again; doubles per failure up to
   * maxRetryAfterMs. Short, so that a server back from a restart gets jobs within seconds.
   * COMFYUI_PROBE_BACKOFF_MS and COMFYUI_PROBE_BACKOFF_MAX_MS.
   */
  retryAfterMs?: number;
  maxRetryAfterMs?: number;
  /** Deadline of the queue probe used to pick a server and to check a failed one. */
  probeTimeoutMs?: number;
  /** How often a server's node types and models are checked again while it stays up. */
  recheckNeedsMs?: number;
  /** How often a server that lacks node types or models is checked again. */
  recheckIncompleteMs?: number;
  /** Prompts failing while running, in a row, that make it `failing` (COMFYUI_FAILING_AFTER). */
  failingAfter?: number;
  /** How long a `failing` server gets no jobs before one on trial (COMFYUI_FAILING_PAUSE_MS). */
  failingPauseMs?: number;
}

export const POOL_DEFAULTS: Required<PoolOptions> = {
  retryAfterMs: 1_000,
  maxRetryAfterMs: 15_000,
  probeTimeoutMs: 3_000,
  recheckNeedsMs: 10 * 60_000,
  recheckIncompleteMs: 60_000,
  failingAfter: 3,
  failingPauseMs: 60_000,
};

/** A server's state changed (what the pool's listeners hear). */
export interface PoolChange {
  url: string;
  state: ServerState;
  /** For 'down', 'incomplete' and 'failing': the pause before it is checked again, ms. */
  pause?: number;
  lastError: string | null;
}

export class Member {
  state: ServerState = 'up';
  queueRemaining: number | null = null;
  /** Tessera's jobs on the server now. */
  active = 0;
  /** Their prompts ComfyUI has queued (so counted in queueRemaining). */
  readonly queued = new Set<string>();
  /** Probes and calls that failed in a row (the pause before the next check grows with it). */
  failures = 0;
  /** Its last failure was a ComfyServerError (no answer, 5xx), not a refusal (401 ...). */
  unreachable = false;
  /** Prompts that failed while running, in a row since the last one that succeeded. */
  runFailures = 0;
  lastError: string | null = null;
  lastErrorAt: Date | null = null;
  lastCheckedAt: Date | null = null;
  nextCheckAt: Date | null = null;
  timer: NodeJS.Timeout | undefined;
  probing: Promise<boolean> | undefined;
  /** When it was last picked (a counter): ties go to the one picked longest ago. */
  pickedAt = 0;
  /** What it lacks for the templates, as its last /object_info told; when that was asked. */
  missing: string[] = [];
  needsCheckedAt: number | undefined;
  version: string | null = null;

  constructor(readonly client: ComfyClient) {}

  get load(): number {
    return Math.max(0, (this.queueRemaining ?? 0) - this.queued.size) + this.active;
  }

  /** Left out, and its pause is over: to be asked again. */
  due(now: number): boolean {
    return (
      (this.state === 'down' || this.state === 'incomplete' || this.state === 'failing') &&
      (this.nextCheckAt?.getTime() ?? 0) <= now
    );
  }

  /** Left out for failing prompts, its pause not over: not even asked when all else fails. */
  benched(now: number): boolean {
    return this.state === 'failing' && !this.due(now);
  }
}
