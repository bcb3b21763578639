/**
 * What one prompt's websocket events (and the server's answers) tell of it: started, its share
 * done, its end or failure (run-prompt.ts).
 */
import {
  isRecord,
  type ComfyWorkflow,
  type ComfyWsMessage,
  type HistoryEntry,
} from './api-types.js';
import { ComfyExecutionError, ComfyNodeFailure } from './errors.js';

/** The error an `execution_error` or `execution_interrupted` message (or history entry) tells. */
export function executionError(serverUrl: string, message: ComfyWsMessage): ComfyExecutionError {
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
  return new ComfyNodeFailure(
    serverUrl,
    `ComfyUI failed${where}: ${type}${text || 'no message'}`,
    nodeId,
    nodeType,
  );
}

/** The state of one prompt as its websocket events (and the server's answers) tell it. */
export class PromptFollower {
  readonly done: Promise<void>;
  started = false;
  settled = false;
  /** The history entry a check found, when that is how the prompt's end became known. */
  finishedHistory: HistoryEntry | undefined;
  private promptId: string | undefined;
  private early: ComfyWsMessage[] = [];
  private startListener: (() => void) | undefined;
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

  /** Called once, when the prompt is first seen running. */
  onStart(listener: () => void): void {
    this.startListener = listener;
    if (this.started) listener();
  }

  markStarted(): void {
    if (this.started) return;
    this.started = true;
    this.startListener?.();
  }

  /** The prompt's end learnt from /history (its end event was lost). */
  finishWith(entry: HistoryEntry): void {
    if (this.settled) return;
    this.finishedHistory = entry;
    this.settled = true;
    this.resolveDone();
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
    if (message.type !== 'progress_state') this.markStarted();
    switch (message.type) {
      case 'execution_start':
        break;
      case 'execution_cached':
        for (const node of message.data.nodes ?? []) this.leaveOut(String(node));
        this.report();
        break;
      case 'executing': {
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
