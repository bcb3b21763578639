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
 *   the job through its outage window. Each drop and reopening is logged (`log`). When another
 *   server of the farm is up (`elsewhere`), a socket that cannot be opened again at the first
 *   try fails the prompt at once (ComfyServerLeftError), for the engine to queue it there.
 * - The execution deadline runs from the prompt's start: past it, the prompt is interrupted and
 *   fails with a ComfyDeadlineError (the job runner retries it as usual).
 * - Aborting `signal` takes the prompt off the queue if it has not started (POST /queue
 *   {delete}) or interrupts it if it runs (POST /interrupt), then rejects with the abort reason;
 *   unless the reason is ServerStopping: then the prompt runs on, to be resumed after the restart.
 * - A failed prompt's history entry is deleted; a finished one's is the caller's to delete once
 *   it has downloaded the image.
 */
import { randomUUID } from 'node:crypto';
import type { ComfyWorkflow, ComfyWsMessage, HistoryEntry, NodeError } from './api-types.js';
import { ServerStopping } from '../../runtime/shutdown.js';
import type { ComfyClient } from './client.js';
import {
  ComfyDeadlineError,
  ComfyExecutionError,
  ComfyServerError,
  ComfyServerLeftError,
  ComfyValidationError,
} from './errors.js';
import { executionError, PromptFollower } from './prompt-follower.js';
import { SocketLink, type LinkOptions } from './socket-link.js';

export type { PromptLog } from './socket-link.js';

export interface RunPromptOptions extends LinkOptions {
  /** The fraction of the prompt executed, 0..1, as events arrive (may repeat values). */
  onProgress?: (fraction: number) => void;
  /** Called (and awaited) once ComfyUI has queued the prompt: the job notes it for a restart. */
  onQueued?: (queued: QueuedPrompt) => void | Promise<void>;
  /** The node whose image is wanted: node_errors that do not reach it leave the prompt to run. */
  outputNode?: string;
  /** Execution deadline from the prompt's start, ms; undefined: none. */
  deadlineMs?: number;
  /** How long to wait for a history entry that lags behind the end event. */
  historyWaitMs?: number;
  /**
   * resumePrompt: whether the prompt the server has is the work wanted now (a series notes one
   * prompt per job; after a restart it may be another face's). One that is not is taken back.
   */
  accepts?: (prompt: ComfyWorkflow | undefined) => boolean;
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
 * longer knows it, it failed, or it is not the work `accepts` wants (then it is taken back): the
 * caller queues it again.
 */
export async function resumePrompt(
  client: ComfyClient,
  queued: QueuedPrompt,
  options: RunPromptOptions,
): Promise<PromptResult | undefined> {
  const { promptId } = queued;
  const accepts = options.accepts ?? (() => true);
  const done = await client.history(promptId, options.signal);
  if (done) {
    if (
      done.status?.status_str !== 'error' &&
      accepts(Array.isArray(done.prompt) ? done.prompt[2] : undefined)
    ) {
      return { promptId, history: done };
    }
    await client.deleteHistory([promptId]).catch(() => undefined);
    return undefined;
  }
  const queue = await client.queue(options.signal);
  const item = [...queue.queue_running, ...queue.queue_pending].find((i) => i[1] === promptId);
  if (!item) return undefined;
  if (!accepts(item[2])) {
    const running = queue.queue_running.some((i) => i[1] === promptId);
    await cancelPrompt(client, promptId, running).catch(() => undefined);
    void forgetLater(client, promptId, options.historyWaitMs ?? 5000);
    return undefined;
  }
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
    if (error instanceof ComfyServerLeftError) {
      // Queued again elsewhere: should this server still run it (only its socket is cut), stop it.
      void cancelPrompt(client, promptId, follower.started).catch(() => undefined);
    } else if (!signal.aborted && !(error instanceof ComfyServerError)) {
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
