/**
 * One prompt on one ComfyUI server, start to end: open /ws with a fresh client id, queue the
 * prompt with that client id (POST /prompt), follow its events, then read /history.
 *
 * - `progress` {value, max} moves the node running; the fraction done weighs each node by its
 *   sampling steps (a KSampler with 30 steps counts 30, any other node 1), cached nodes left out.
 * - `executing` with node null ends the prompt (ComfyUI sends it after success, error and
 *   interruption alike, once the history is written); `execution_error` and
 *   `execution_interrupted` fail it with the node and message.
 * - Messages get lost (ComfyUI drops what it cannot send) and sockets drop: the socket is opened
 *   again with the same client id (ComfyUI then sends the running node again), and whenever the
 *   socket has been quiet for `pollMs`, or has just been opened again, /history and /queue tell
 *   the prompt's state. Only a server that stays unreachable (ComfyServerError), or that no
 *   longer knows the prompt (ComfyPromptLostError: it restarted), fails it; the engine then keeps
 *   the job through its outage window. Each drop and reopening is logged (`log`).
 * - The execution deadline runs from the prompt's start: past it, the prompt is interrupted and
 *   fails with a ComfyDeadlineError (the job runner retries it as usual).
 * - Aborting `signal` takes the prompt off the queue if it has not started (POST /queue
 *   {delete}) or interrupts it if it runs (POST /interrupt), then rejects with the abort reason;
 *   unless the reason is ServerStopping: then the prompt runs on, to be resumed after the restart.
 * - A failed prompt's history entry is deleted; a finished one's is the caller's to delete once
 *   it has downloaded the image.
 */
import { randomUUID } from 'node:crypto';
import {
  isRecord,
  type ComfyWorkflow,
  type ComfyWsMessage,
  type HistoryEntry,
  type NodeError,
} from './api-types.js';
import { ServerStopping } from '../../shutdown.js';
import type { ComfyClient, ComfySocket } from './client.js';
import {
  ComfyDeadlineError,
  ComfyExecutionError,
  ComfyNodeFailure,
  ComfyPromptLostError,
  ComfyServerError,
  ComfyValidationError,
} from './errors.js';

/** Where a prompt's websocket drops and reopenings are told (the server's logger). */
export interface PromptLog {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
}

export interface RunPromptOptions {
  signal: AbortSignal;
  /** The fraction of the prompt executed, 0..1, as events arrive (may repeat values). */
  onProgress?: (fraction: number) => void;
  /** Called (and awaited) once ComfyUI has queued the prompt: the job notes it for a restart. */
  onQueued?: (queued: QueuedPrompt) => void | Promise<void>;
  /** The node whose image is wanted: node_errors that do not reach it leave the prompt to run. */
  outputNode?: string;
  /** Execution deadline from the prompt's start, ms; undefined: none. */
  deadlineMs?: number;
  /** Ask /history and /queue after this much silence on the socket, ms (default 10 s). */
  pollMs?: number;
  /** Keep trying to open a dropped socket again for this long, ms (default 30 s). */
  reconnectMs?: number;
  /** How long to wait for a history entry that lags behind the end event. */
  historyWaitMs?: number;
  /** Told of each websocket drop, reopening and give-up. */
  log?: PromptLog;
}

/** A prompt ComfyUI has queued, and the client id its events go to. */
export interface QueuedPrompt {
  promptId: string;
  clientId: string;
}

export interface PromptResult {
  promptId: string;
  history: HistoryEntry;
}

/** Queues `prompt` and follows it to its end. */
export async function runPrompt(
  client: ComfyClient,
  prompt: ComfyWorkflow,
  options: RunPromptOptions,
): Promise<PromptResult> {
  const { signal } = options;
  signal.throwIfAborted();
  const clientId = randomUUID();
  const follower = new PromptFollower(client.displayUrl, prompt, options.onProgress);
  const link = new SocketLink(client, clientId, follower, options);
  await link.open(signal);
  try {
    // Not abortable: once ComfyUI has it, Tessera must know its id to take it back.
    const queued = await client.queuePrompt(prompt, clientId);
    const blocking = errorsReaching(queued.node_errors, options.outputNode);
    if (blocking) {
      // ComfyUI queued the outputs that passed; the one Tessera wants did not.
      await client.deleteFromQueue([queued.prompt_id]).catch(() => undefined);
      throw new ComfyValidationError(client.displayUrl, undefined, blocking);
    }
    follower.setPromptId(queued.prompt_id);
    await Promise.resolve(options.onQueued?.({ promptId: queued.prompt_id, clientId })).catch(
      () => undefined,
    );
    return await follow(client, queued.prompt_id, follower, link, options);
  } finally {
    link.close();
  }
}

/**
 * Picks up a prompt queued before Tessera restarted: its result if it finished, its events if it
 * is still queued or running (on a socket of its own client id). Undefined when the server no
 * longer knows it or it failed: the caller queues it again.
 */
export async function resumePrompt(
  client: ComfyClient,
  queued: QueuedPrompt,
  options: RunPromptOptions,
): Promise<PromptResult | undefined> {
  const { promptId } = queued;
  const done = await client.history(promptId, options.signal);
  if (done) {
    if (done.status?.status_str !== 'error') return { promptId, history: done };
    await client.deleteHistory([promptId]).catch(() => undefined);
    return undefined;
  }
  const queue = await client.queue(options.signal);
  const item = [...queue.queue_running, ...queue.queue_pending].find((i) => i[1] === promptId);
  if (!item) return undefined;
  const follower = new PromptFollower(client.displayUrl, item[2], options.onProgress);
  follower.setPromptId(promptId);
  const link = new SocketLink(client, queued.clientId, follower, options);
  await link.open(options.signal);
  try {
    return await follow(client, promptId, follower, link, options);
  } finally {
    link.close();
  }
}

/** Waits for the prompt's end (events, polls, deadline, abort); its history if it succeeded. */
async function follow(
  client: ComfyClient,
  promptId: string,
  follower: PromptFollower,
  link: SocketLink,
  options: RunPromptOptions,
): Promise<PromptResult> {
  const { signal } = options;
  const deadline = new Deadline(options.deadlineMs, () => {
    void cancelPrompt(client, promptId, true)
      .catch(() => undefined)
      .then(() => {
        const seconds = (options.deadlineMs ?? 0) / 1000;
        follower.fail(
          new ComfyDeadlineError(
            client.displayUrl,
            `ComfyUI did not finish prompt ${promptId} within ${seconds} s: interrupted`,
          ),
        );
      });
  });
  follower.onStart(() => deadline.start());
  link.startPolling(promptId);
  try {
    await waitUnlessAborted(follower.done, signal, async () => {
      // Tessera stopping: the prompt runs on, for the job to pick it up after the restart.
      if (signal.reason instanceof ServerStopping) return;
      await cancelPrompt(client, promptId, follower.started);
      void forgetLater(client, promptId, options.historyWaitMs ?? 5000);
    });
    const history =
      follower.finishedHistory ??
      (await readHistory(client, promptId, options.historyWaitMs ?? 5000));
    const failure = historyFailure(client.displayUrl, history);
    if (failure) throw failure;
    return { promptId, history };
  } catch (error) {
    if (!signal.aborted && !(error instanceof ComfyServerError)) {
      void forgetLater(client, promptId, options.historyWaitMs ?? 5000);
    }
    throw error;
  } finally {
    deadline.stop();
  }
}

/** The node errors that keep `outputNode` from being made (any, without one); else undefined. */
function errorsReaching(
  nodeErrors: Record<string, NodeError>,
  outputNode: string | undefined,
): Record<string, NodeError> | undefined {
  const reaching = Object.entries(nodeErrors).filter(
    ([id, error]) =>
      outputNode === undefined ||
      id === outputNode ||
      (error.dependent_outputs ?? []).map(String).includes(outputNode),
  );
  return reaching.length > 0 ? Object.fromEntries(reaching) : undefined;
}

/** Deletes a failed prompt's history entry once it is written (ComfyUI writes it at the end). */
async function forgetLater(client: ComfyClient, promptId: string, waitMs: number): Promise<void> {
  const until = Date.now() + waitMs;
  try {
    while (!(await client.history(promptId)) && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    await client.deleteHistory([promptId]);
  } catch {
    // The server is gone: nothing to clean now.
  }
}

/** A timer started once; fires `onLate` unless stopped first. */
class Deadline {
  private timer: NodeJS.Timeout | undefined;
  private started = false;

  constructor(
    private readonly ms: number | undefined,
    private readonly onLate: () => void,
  ) {}

  start(): void {
    if (this.started || this.ms === undefined) return;
    this.started = true;
    this.timer = setTimeout(this.onLate, this.ms);
  }

  stop(): void {
    clearTimeout(this.timer);
  }
}

/**
 * The prompt's websocket, kept open: a dropped socket is opened again with the same client id
 * for up to `reconnectMs`, after which the prompt fails as a server error. After each reopening,
 * and after `pollMs` without a message, the server is asked for the prompt's state.
 */
class SocketLink {
  private socket: ComfySocket | undefined;
  private closed = false;
  private lastMessageAt = Date.now();
  private poller: NodeJS.Timeout | undefined;
  private promptId: string | undefined;
  private checking = false;

  constructor(
    private readonly client: ComfyClient,
    private readonly clientId: string,
    private readonly follower: PromptFollower,
    private readonly options: RunPromptOptions,
  ) {}

  async open(signal: AbortSignal): Promise<void> {
    this.attach(await this.client.openSocket(this.clientId, signal));
  }

  startPolling(promptId: string): void {
    this.promptId = promptId;
    const every = this.options.pollMs ?? 10_000;
    this.poller = setInterval(() => {
      if (Date.now() - this.lastMessageAt >= every) void this.check();
    }, every);
  }

  close(): void {
    this.closed = true;
    clearInterval(this.poller);
    this.socket?.close();
  }

  private attach(socket: ComfySocket): void {
    this.socket = socket;
    socket.onMessage((message) => {
      this.lastMessageAt = Date.now();
      this.follower.handle(message);
    });
    socket.onDrop((error) => void this.reopen(error));
  }

  private async reopen(dropped: ComfyServerError): Promise<void> {
    const droppedAt = Date.now();
    const until = droppedAt + (this.options.reconnectMs ?? 30_000);
    const about = {
      server: this.client.displayUrl,
      promptId: this.promptId,
      clientId: this.clientId,
    };
    if (!this.closed && !this.follower.settled) {
      this.options.log?.warn(
        { ...about, err: dropped.message },
        'ComfyUI websocket dropped, reopening',
      );
    }
    let pause = 250;
    let attempts = 0;
    let last: unknown = dropped;
    while (!this.closed && !this.follower.settled && Date.now() < until) {
      try {
        attempts++;
        const socket = await this.client.openSocket(this.clientId, this.options.signal);
        if (this.closed) {
          socket.close();
          return;
        }
        this.options.log?.info(
          { ...about, attempts, downMs: Date.now() - droppedAt },
          'ComfyUI websocket reopened',
        );
        this.attach(socket);
        // Whatever was sent while no socket was open is lost: ask where the prompt is.
        await this.check();
        return;
      } catch (error) {
        if (this.options.signal.aborted) return;
        last = error;
        await new Promise((resolve) => setTimeout(resolve, pause));
        pause = Math.min(pause * 2, 4000);
      }
    }
    if (this.closed || this.follower.settled) return;
    const why = last instanceof Error ? last.message : String(last);
    this.options.log?.warn(
      { ...about, attempts, downMs: Date.now() - droppedAt, err: why },
      'ComfyUI websocket could not be reopened',
    );
    this.follower.fail(
      new ComfyServerError(
        this.client.displayUrl,
        `${dropped.message.replace(/^ComfyUI server \S+: /, '')}, and the websocket could not be opened again (${why.replace(/^ComfyUI server \S+: /, '')})`,
      ),
    );
  }

  /** Asks /history, then /queue, where the prompt is; settles the follower if it is over. */
  private async check(): Promise<void> {
    const promptId = this.promptId;
    if (promptId === undefined || this.checking || this.follower.settled) return;
    this.checking = true;
    try {
      const entry = await this.client.history(promptId);
      if (entry) {
        this.follower.finishWith(entry);
        return;
      }
      const queue = await this.client.queue();
      if (queue.queue_running.some((item) => item[1] === promptId)) {
        this.follower.markStarted();
        return;
      }
      if (queue.queue_pending.some((item) => item[1] === promptId)) return;
      // It may have ended between the two questions.
      const late = await this.client.history(promptId);
      if (late) {
        this.follower.finishWith(late);
        return;
      }
      this.follower.fail(new ComfyPromptLostError(this.client.displayUrl, promptId));
    } catch {
      // Not answering now: the socket's heartbeat and reopening tell whether it is gone.
    } finally {
      this.checking = false;
    }
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
  return new ComfyNodeFailure(
    serverUrl,
    `ComfyUI failed${where}: ${type}${text || 'no message'}`,
    nodeId,
    nodeType,
  );
}

/** The state of one prompt as its websocket events (and the server's answers) tell it. */
class PromptFollower {
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
