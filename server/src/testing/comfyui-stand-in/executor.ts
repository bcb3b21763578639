/**
 * Runs one prompt as ComfyUI's execution.py PromptExecutor does: its nodes in dependency order,
 * with the websocket messages of each step (execution_start, execution_cached, executing,
 * progress, executed, then execution_success / execution_error / execution_interrupted).
 */
import type { EventEmitter } from 'node:events';
import { isLink, type ComfyWorkflow, type HistoryEntry } from '../../engines/comfyui/api-types.js';
import type { Folders } from './folders.js';
import { runNode, type ImageWriter, type Value } from './render.js';
import type { ClientSockets } from './websocket.js';

/** A prompt in the queue. */
export interface QueueEntry {
  number: number;
  promptId: string;
  prompt: ComfyWorkflow;
  extraData: Record<string, unknown>;
  /** The output nodes that passed validation: what runs. */
  outputs: string[];
}

/** The websocket client that queued the prompt, if it said. */
export const clientOf = (entry: QueueEntry): string | undefined =>
  typeof entry.extraData.client_id === 'string' ? entry.extraData.client_id : undefined;

export type PromptStatus = 'success' | 'error' | 'interrupted';

export interface Execution {
  status: PromptStatus;
  /** The images each output node wrote (history's `outputs`). */
  outputs: HistoryEntry['outputs'];
  /** The messages recorded in history's `status.messages`. */
  messages: [string, Record<string, unknown>][];
}

export interface ExecutorSettings {
  folders: Folders;
  save: ImageWriter;
  sockets: ClientSockets;
  events: EventEmitter;
  /** Time per sampling step, ms. */
  stepDelayMs: number;
  /** Sampling steps reported at most per sampler. */
  maxSteps: number;
  /** Running this node id fails the prompt. */
  failAtNode: string | undefined;
  /** The stand-in has gone away (crashed or closed): stop and send nothing more. */
  isGone(): boolean;
  /** POST /interrupt asked to stop the running prompt. */
  isInterrupted(): boolean;
  /** The node now running (sent again to a client that reconnects). */
  nodeStarted(id: string): void;
}

class Interrupted extends Error {}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The nodes the outputs depend on, each after its inputs, then the outputs. */
function executionOrder(prompt: ComfyWorkflow, outputs: string[]): string[] {
  const seen = new Set<string>();
  const list: string[] = [];
  const visit = (id: string) => {
    if (seen.has(id)) return;
    seen.add(id);
    for (const value of Object.values(prompt[id]?.inputs ?? {})) {
      if (isLink(value) && value[0] in prompt) visit(value[0]);
    }
    list.push(id);
  };
  for (const output of outputs) visit(output);
  return list;
}

/** Runs the prompt; undefined when the stand-in went away meanwhile. */
export async function executePrompt(
  entry: QueueEntry,
  settings: ExecutorSettings,
): Promise<Execution | undefined> {
  const { promptId, prompt } = entry;
  const { sockets, events, isGone, isInterrupted } = settings;
  const sid = clientOf(entry);
  const send = (type: string, data: unknown) => sockets.sendJson(sid, type, data);
  const messages: Execution['messages'] = [];
  const record = (type: string, data: Record<string, unknown>) => {
    messages.push([type, data]);
    send(type, data);
  };
  record('execution_start', { prompt_id: promptId, timestamp: Date.now() });
  record('execution_cached', { nodes: [], prompt_id: promptId, timestamp: Date.now() });
  const values = new Map<string, Value[]>();
  const outputs: HistoryEntry['outputs'] = {};
  const executed: string[] = [];
  const progress = async (node: string, max: number, preview: boolean) => {
    for (let value = 1; value <= max; value++) {
      await sleep(settings.stepDelayMs);
      if (isGone() || isInterrupted()) throw new Interrupted();
      send('progress', { value, max, prompt_id: promptId, node });
      if (preview) sockets.sendPreview(sid);
      events.emit('progress', { prompt_id: promptId, node, value, max });
    }
  };
  let status: PromptStatus = 'success';
  let current = '';
  try {
    for (const id of executionOrder(prompt, entry.outputs)) {
      current = id;
      if (isGone() || isInterrupted()) throw new Interrupted();
      settings.nodeStarted(id);
      send('executing', { node: id, display_node: id, prompt_id: promptId });
      events.emit('executing', { prompt_id: promptId, node: id });
      await sleep(0);
      if (settings.failAtNode === id) {
        throw new Error(`stand-in failure at node ${id}`);
      }
      const node = prompt[id];
      if (!node) continue;
      const result = await runNode({
        node,
        values,
        folders: settings.folders,
        save: settings.save,
        maxSteps: settings.maxSteps,
        progress: (max, preview) => progress(id, max, preview),
      });
      if (result.images) {
        outputs[id] = { images: result.images };
        if (isGone()) throw new Interrupted();
        send('executed', {
          node: id,
          display_node: id,
          output: { images: result.images },
          prompt_id: promptId,
        });
      }
      values.set(id, result.out);
      executed.push(id);
    }
    record('execution_success', { prompt_id: promptId, timestamp: Date.now() });
  } catch (error) {
    if (isGone()) return undefined;
    const nodeType = prompt[current]?.class_type ?? '';
    if (error instanceof Interrupted) {
      status = 'interrupted';
      record('execution_interrupted', {
        prompt_id: promptId,
        node_id: current,
        node_type: nodeType,
        executed,
        timestamp: Date.now(),
      });
    } else {
      status = 'error';
      record('execution_error', {
        prompt_id: promptId,
        node_id: current,
        node_type: nodeType,
        executed,
        exception_message: error instanceof Error ? error.message : String(error),
        exception_type: 'RuntimeError',
        traceback: ['  File "stand-in", line 1, in execute\n'],
        current_inputs: {},
        current_outputs: {},
        timestamp: Date.now(),
      });
    }
  }
  if (isGone()) return undefined;
  return { status, outputs, messages };
}
