/**
 * What keeps a ComfyUI job through an outage of its server (COMFYUI_OUTAGE_WINDOW_MS): which
 * failures are an outage rather than the job's own error, and how long the job may wait one out.
 * A restarted ComfyUI has lost its queue and history, so the engine queues the prompt again
 * there, or on another server of the farm as soon as one answers (comfyui-engine.ts).
 */
import { ComfyPromptLostError, ComfyServerError } from './errors.js';
import { NoServerAvailableError } from './pool.js';

/**
 * A server that cannot be reached (or answers 5xx, or dropped its websocket for good), one that
 * lost the prompt (it restarted), or no server answering while one of them is only down. A
 * refused or failing workflow, a 4xx, a server lacking models are the job's own errors.
 */
export function isOutage(error: unknown): boolean {
  return (
    error instanceof ComfyServerError ||
    error instanceof ComfyPromptLostError ||
    (error instanceof NoServerAvailableError && error.mayComeBack)
  );
}

/** The time a job may spend riding out outages, counted from the first one of its run. */
export class OutageWindow {
  private since: number | undefined;

  constructor(
    private readonly ms: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Notes an outage (the first starts the window); the time left, ms (0 or less: give up). */
  note(): number {
    this.since ??= this.now();
    return this.since + this.ms - this.now();
  }
}
