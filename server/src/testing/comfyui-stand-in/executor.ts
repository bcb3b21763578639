/**
 * Runs one prompt as ComfyUI's execution.py PromptExecutor does: its nodes in dependency order,
 * with the websocket messages of each step (execution_start, execution_cached, progress_state,
 * executing, progress, executed, then execution_success / execution_error /
 * execution_interrupted). Nodes whose inputs are those of the last run are not run again (the
 * cache): they are listed in execution_cached, and an output node among them sends `executed`
 * with its earlier images. An interrupt takes effect where ComfyUI checks it: when a node starts
 * and at each progress step.
 */
import { createHash } from 'node:crypto';
import type { EventEmitter } from 'node:events';
import fs from 'node:fs';
import { isLink, type ComfyWorkflow, type HistoryEntry } from '../../engines/comfyui/api-types.js';
import { annotatedPath, type Folders } from './folders.js';
import type { InstalledFiles } from './node-classes.js';
import { runNode, type ImageWriter, type NodeResult, type Value } from './render.js';
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
  installed: () => InstalledFiles;
  /** The stand-in has gone away (crashed or closed): stop and send nothing more. */
  isGone(): boolean;
  /** Whether an interrupt is pending; taking it clears it (model_management's flag). */
  takeInterrupt(): boolean;
  /** Resolves when a node may start (held by holdAt until release() or an interrupt). */
  mayStart(id: string): Promise<void>;
  /** The node now running (sent again to a client that reconnects). */
  nodeStarted(id: string): void;
  /** The outputs of the last run by node id, with the signature of the inputs they came from. */
  cache: Map<string, { signature: string; result: NodeResult }>;
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

/**
 * What a node's output depends on: its class and inputs, the signatures of the nodes it links to,
 * and for LoadImage the file's contents (LoadImage's IS_CHANGED hashes the file).
 */
function signatures(prompt: ComfyWorkflow, order: string[], folders: Folders): Map<string, string> {
  const out = new Map<string, string>();
  for (const id of order) {
    const node = prompt[id];
    if (!node) continue;
    const inputs = Object.fromEntries(
      Object.entries(node.inputs).map(([name, value]) => [
        name,
        isLink(value) ? `${out.get(value[0]) ?? value[0]}:${value[1]}` : value,
      ]),
    );
    let extra = '';
    if (node.class_type === 'LoadImage') {
      const file = annotatedPath(folders, String(node.inputs.image));
      extra =
        file && fs.existsSync(file)
          ? createHash('sha256').update(fs.readFileSync(file)).digest('hex')
          : '';
    }
    out.set(
      id,
      createHash('sha256')
        .update(JSON.stringify([node.class_type, inputs, extra]))
        .digest('hex'),
    );
  }
  return out;
}

/** Runs the prompt; undefined when the stand-in went away meanwhile. */
export async function executePrompt(
  entry: QueueEntry,
  settings: ExecutorSettings,
): Promise<Execution | undefined> {
  const { promptId, prompt } = entry;
  const { sockets, events, isGone, cache } = settings;
  const isInterrupted = () => settings.takeInterrupt();
  const sid = clientOf(entry);
  const send = (type: string, data: unknown) => sockets.sendJson(sid, type, data);
  const messages: Execution['messages'] = [];
  const record = (type: string, data: Record<string, unknown>) => {
    messages.push([type, data]);
    send(type, data);
  };
  const order = executionOrder(prompt, entry.outputs);
  const signed = signatures(prompt, order, settings.folders);
  const cached = order.filter((id) => cache.get(id)?.signature === signed.get(id));
  record('execution_start', { prompt_id: promptId, timestamp: Date.now() });
  record('execution_cached', { nodes: cached, prompt_id: promptId, timestamp: Date.now() });
  const states: Record<string, Record<string, unknown>> = {};
  const progressState = (node: string, state: string, value: number, max: number) => {
    states[node] = {
      value,
      max,
      state,
      node_id: node,
      prompt_id: promptId,
      display_node_id: node,
      parent_node_id: null,
      real_node_id: node,
    };
    send('progress_state', { prompt_id: promptId, nodes: states });
  };
  const values = new Map<string, Value[]>();
  const outputs: HistoryEntry['outputs'] = {};
  const executed: string[] = [];
  const progress = async (node: string, max: number, preview: boolean) => {
    for (let value = 1; value <= max; value++) {
      await sleep(settings.stepDelayMs);
      if (isGone() || isInterrupted()) throw new Interrupted();
      send('progress', { value, max, prompt_id: promptId, node });
      progressState(node, 'running', value, max);
      if (preview) sockets.sendPreview(sid);
      events.emit('progress', { prompt_id: promptId, node, value, max });
    }
  };
  let status: PromptStatus = 'success';
  let current = '';
  try {
    for (const id of order) {
      current = id;
      const node = prompt[id];
      if (!node) continue;
      const hit = cached.includes(id) ? cache.get(id) : undefined;
      if (hit) {
        values.set(id, hit.result.out);
        if (hit.result.images) {
          outputs[id] = { images: hit.result.images };
          send('executed', {
            node: id,
            display_node: id,
            output: { images: hit.result.images },
            prompt_id: promptId,
          });
        }
        continue;
      }
      await settings.mayStart(id);
      if (isGone() || isInterrupted()) throw new Interrupted();
      settings.nodeStarted(id);
      progressState(id, 'running', 0, 1);
      send('executing', { node: id, display_node: id, prompt_id: promptId });
      events.emit('executing', { prompt_id: promptId, node: id });
      await sleep(0);
      if (settings.failAtNode === id) {
        throw new Error(`stand-in failure at node ${id}`);
      }
      const result = await runNode({
        node,
        values,
        folders: settings.folders,
        installed: settings.installed(),
        save: settings.save,
        maxSteps: settings.maxSteps,
        progress: (max, preview) => progress(id, max, preview),
      });
      cache.set(id, { signature: signed.get(id) ?? '', result });
      progressState(id, 'finished', 1, 1);
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
    // A failed node's outputs are not kept; nor, as in ComfyUI, are those of what follows it.
    cache.delete(current);
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
  // ComfyUI's classic cache keeps only the nodes of the last prompt.
  for (const id of [...cache.keys()]) if (!(id in prompt)) cache.delete(id);
  return { status, outputs, messages };
}
