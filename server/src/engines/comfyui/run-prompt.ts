/**
 * One prompt on one ComfyUI server, start to end: open /ws with a fresh client id, queue the
 * prompt with that client id (POST /prompt), follow its events, then read /history.
 *
 * - `progress` {value, max} moves the node running; the fraction done weighs each node by its
 *   sampling steps (a KSampler with 30 steps counts 30, any other node 1), cached nodes left out.
 * - `executing` with node null ends the prompt (ComfyUI sends it after success, error and
 *   interruption alike, once the history is written); `execution_error` and
 *   `execution_interrupted` fail it with the node and message.
 * - The websocket dropping fails it as a server error.
 * - Aborting `signal` takes the prompt off the queue if it has not started (POST /queue
 *   {delete}) or interrupts it if it runs (POST /interrupt), then rejects with the abort reason.
 */
import { randomUUID } from 'node:crypto';
import {
  isRecord,
  type ComfyWorkflow,
  type ComfyWsMessage,
  type HistoryEntry,
} from './api-types.js';
import type { ComfyClient } from './client.js';
import { ComfyExecutionError, ComfyServerError } from './errors.js';

export interface RunPromptOptions {
  signal: AbortSignal;
  /** The fraction of the prompt executed, 0..1, as events arrive (may repeat values). */
  onProgress?: (fraction: number) => void;
  /** Called once ComfyUI has queued the prompt. */
  onQueued?: (promptId: string) => void;
  /** How long to wait for a history entry that lags behind the end event. */
  historyWaitMs?: number;
}

export interface PromptResult {
  promptId: string;
  history: HistoryEntry;
}

export async function runPrompt(
  client: ComfyClient,
  prompt: ComfyWorkflow,
  options: RunPromptOptions,
): Promise<PromptResult> {
  const { signal } = options;
  signal.throwIfAborted();
  const clientId = randomUUID();
  const socket = await client.openSocket(clientId, signal);
  try {
    const follower = new PromptFollower(client.displayUrl, prompt, options.onProgress);
    const unsubscribe = socket.onMessage((message) => follower.handle(message));
    const undrop = socket.onDrop((error) => follower.fail(error));
    try {
      // Not abortable: once ComfyUI has it, Tessera must know its id to take it back.
      const queued = await client.queuePrompt(prompt, clientId);
      follower.setPromptId(queued.prompt_id);
      options.onQueued?.(queued.prompt_id);
      try {
        await waitUnlessAborted(follower.done, signal, () =>
          cancelPrompt(client, queued.prompt_id, follower.started),
        );
      } catch (error) {
        // The websocket dropped but the server may still run it: the retry goes elsewhere.
        if (error instanceof ComfyServerError) {
          void cancelPrompt(client, queued.prompt_id, follower.started).catch(() => undefined);
        }
        throw error;
      }
      const history = await readHistory(client, queued.prompt_id, options.historyWaitMs ?? 5000);
      const failure = historyFailure(client.displayUrl, history);
      if (failure) throw failure;
      return { promptId: queued.prompt_id, history };
    } finally {
      unsubscribe();
      undrop();
    }
  } finally {
    socket.close();
  }
}

/** Settles with `done`, or on abort runs `cancel` and rejects with the abort reason. */
async function waitUnlessAborted(
  done: Promise<void>,
  signal: AbortSignal,
  cancel: () => Promise<void>,
): Promise<void> {
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => {
      void cancel()
        .catch(() => undefined)
        .then(() => reject(signal.reason as Error));
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    await Promise.race([done, aborted]);
  } finally {
    if (onAbort) signal.removeEventListener('abort', onAbort);
  }
}

/** Takes a prompt back: off the queue while pending, interrupted while it runs. */
export async function cancelPrompt(
  client: ComfyClient,
  promptId: string,
  seenRunning: boolean,
): Promise<void> {
  let running = seenRunning;
  let pending = !seenRunning;
  try {
    const queue = await client.queue();
    running = queue.queue_running.some((item) => item[1] === promptId);
    pending = queue.queue_pending.some((item) => item[1] === promptId);
  } catch {
    // Unknown: act on what the websocket told.
  }
  if (pending) await client.deleteFromQueue([promptId]);
  if (running) await client.interrupt(promptId);
}

async function readHistory(
  client: ComfyClient,
  promptId: string,
  waitMs: number,
): Promise<HistoryEntry> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const entry = await client.history(promptId);
    if (entry) return entry;
    if (Date.now() >= deadline) {
      throw new ComfyServerError(
        client.displayUrl,
        `GET /history has no entry for prompt ${promptId}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** An error the history records (status_str 'error'), as the websocket would have told it. */
function historyFailure(serverUrl: string, history: HistoryEntry): Error | undefined {
  if (history.status?.status_str !== 'error') return undefined;
  for (const [type, data] of history.status.messages ?? []) {
    if (type === 'execution_error' || type === 'execution_interrupted') {
      return executionError(serverUrl, { type, data } as ComfyWsMessage);
    }
  }
  return new ComfyExecutionError(serverUrl, 'ComfyUI reports the workflow failed');
}

function executionError(serverUrl: string, message: ComfyWsMessage): ComfyExecutionError {
  const data = message.data as Record<string, unknown>;
  const nodeId = typeof data.node_id === 'string' ? data.node_id : undefined;
  const nodeType = typeof data.node_type === 'string' ? data.node_type : undefined;
  const where = nodeId ? ` at node ${nodeId}${nodeType ? ` (${nodeType})` : ''}` : '';
  if (message.type === 'execution_interrupted') {
    return new ComfyExecutionError(
      serverUrl,
      `ComfyUI interrupted the workflow${where}`,
      nodeId,
      nodeType,
    );
  }
  const type = typeof data.exception_type === 'string' ? `${data.exception_type}: ` : '';
  const text = typeof data.exception_message === 'string' ? data.exception_message.trim() : '';
  return new ComfyExecutionError(
    serverUrl,
    `ComfyUI failed${where}: ${type}${text || 'no message'}`,
    nodeId,
    nodeType,
  );
}

/** The state of one prompt as its websocket events tell it. */
class PromptFollower {
  readonly done: Promise<void>;
  started = false;
  private promptId: string | undefined;
  private early: ComfyWsMessage[] = [];
  private settled = false;
  private resolveDone!: () => void;
  private rejectDone!: (error: Error) => void;
  private readonly weights = new Map<string, number>();
  private totalWeight = 0;
  private doneWeight = 0;
  private readonly finished = new Set<string>();
  private current: string | undefined;
  private currentFraction = 0;

  constructor(
    private readonly serverUrl: string,
    prompt: ComfyWorkflow,
    private readonly onProgress?: (fraction: number) => void,
  ) {
    this.done = new Promise<void>((resolve, reject) => {
      this.resolveDone = resolve;
      this.rejectDone = reject;
    });
    // Rejections are handled by whoever awaits; keep an early failure from being "unhandled".
    this.done.catch(() => undefined);
    for (const [id, node] of Object.entries(prompt)) {
      const steps = node.inputs.steps;
      const weight = typeof steps === 'number' && steps > 0 ? steps : 1;
      this.weights.set(id, weight);
      this.totalWeight += weight;
    }
  }

  setPromptId(id: string): void {
    this.promptId = id;
    const early = this.early;
    this.early = [];
    for (const message of early) this.handle(message);
  }

  fail(error: Error): void {
    if (this.settled) return;
    this.settled = true;
    this.rejectDone(error);
  }

  handle(message: ComfyWsMessage): void {
    if (this.settled || message.type === 'status') return;
    const data = message.data as Record<string, unknown>;
    if (!isRecord(data)) return;
    // The client id is this prompt's alone, so events before its id is known are its own.
    if (this.promptId === undefined) {
      this.early.push(message);
      return;
    }
    if (typeof data.prompt_id === 'string' && data.prompt_id !== this.promptId) return;
    switch (message.type) {
      case 'execution_start':
        this.started = true;
        break;
      case 'execution_cached':
        this.started = true;
        for (const node of message.data.nodes ?? []) this.leaveOut(String(node));
        this.report();
        break;
      case 'executing': {
        this.started = true;
        this.finishCurrent();
        const node = message.data.node;
        if (node === null || node === undefined) {
          this.settled = true;
          this.resolveDone();
          return;
        }
        this.current = String(node);
        this.currentFraction = 0;
        this.report();
        break;
      }
      case 'progress': {
        const { value, max } = message.data;
        if (typeof value !== 'number' || typeof max !== 'number' || max <= 0) return;
        if (typeof message.data.node === 'string' && message.data.node !== this.current) {
          this.finishCurrent();
          this.current = message.data.node;
        }
        this.currentFraction = Math.min(1, Math.max(0, value / max));
        this.report();
        break;
      }
      case 'executed':
        if (message.data.node === this.current) this.finishCurrent();
        this.report();
        break;
      case 'execution_error':
      case 'execution_interrupted':
        this.fail(executionError(this.serverUrl, message));
        break;
      default:
        break;
    }
  }

  private leaveOut(node: string): void {
    if (this.finished.has(node)) return;
    this.finished.add(node);
    const weight = this.weights.get(node) ?? 0;
    this.totalWeight -= weight;
  }

  private finishCurrent(): void {
    const node = this.current;
    this.current = undefined;
    this.currentFraction = 0;
    if (node === undefined || this.finished.has(node)) return;
    this.finished.add(node);
    this.doneWeight += this.weights.get(node) ?? 0;
  }

  private report(): void {
    if (!this.onProgress || this.totalWeight <= 0) return;
    const running = this.current === undefined ? 0 : (this.weights.get(this.current) ?? 0);
    const fraction = (this.doneWeight + running * this.currentFraction) / this.totalWeight;
    this.onProgress(Math.min(1, Math.max(0, fraction)));
  }
}
