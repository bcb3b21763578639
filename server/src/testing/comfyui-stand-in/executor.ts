/**
 * Runs one prompt as ComfyUI's execution.py PromptExecutor does: its nodes in dependency order,
 * with the websocket messages of each step (execution_start, execution_cached, progress_state,
 * executing, progress, executed, then execution_success / execution_error /
 * execution_interrupted). Nodes whose inputs are those of the last run are not run again (the
 * cache): they are listed in execution_cached, and an output node among them sends `executed`
 * with its earlier images. As ComfyUI's output cache (CacheKeySetInputSignature), the cache is
 * keyed by what a node computes (its class, inputs and ancestors), not by its node id: the same
 * LoadImage under another id in the next prompt is cached too. An interrupt takes effect where
 * ComfyUI checks it: as a node is called (after its `executing`) and at each progress step.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { EventEmitter } from 'node:events';
import fs from 'node:fs';
import { isLink, type ComfyWorkflow, type HistoryEntry } from '../../engines/comfyui/api-types.js';
import { annotatedPath, type Folders } from './folders.js';
import type { InstalledFiles } from './node-classes.js';
import { NodeException, runNode, type ImageWriter, type NodeResult, type Value } from './render.js';
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
  /** The outputs of the last prompts by node signature (see signatures()). */
  cache: Map<string, NodeResult>;
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
 * What a node's output depends on, as ComfyUI's input signature: its class and inputs, the
 * signatures of the nodes it links to (never node ids), and for LoadImage the file's contents
 * (LoadImage's IS_CHANGED hashes the file). Every node of the prompt is signed.
 */
function signatures(prompt: ComfyWorkflow, folders: Folders): Map<string, string> {
  const out = new Map<string, string>();
  const sign = (id: string, path: string[]): string => {
    const known = out.get(id);
    if (known !== undefined) return known;
    const node = prompt[id];
    // A link to a missing node, or a cycle: nothing that could be cached.
    if (!node || path.includes(id)) return `missing:${randomUUID()}`;
    const inputs = Object.fromEntries(
      Object.entries(node.inputs).map(([name, value]) => [
        name,
        isLink(value) ? `${sign(value[0], [...path, id])}:${value[1]}` : value,
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
    const signature = createHash('sha256')
      .update(JSON.stringify([node.class_type, inputs, extra]))
      .digest('hex');
    out.set(id, signature);
    return signature;
  };
  for (const id of Object.keys(prompt)) sign(id, []);
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
  // ComfyUI sends a prompt's messages to the client that queued it. A prompt queued without a
  // client_id tells nobody but progress and progress_state, and those go to every client.
  const send = (type: string, data: unknown) => {
    if (sid !== undefined || type === 'progress' || type === 'progress_state') {
      sockets.sendJson(sid, type, data);
    }
  };
  const messages: Execution['messages'] = [];
  const record = (type: string, data: Record<string, unknown>) => {
    messages.push([type, data]);
    send(type, data);
  };
  const order = executionOrder(prompt, entry.outputs);
  const signed = signatures(prompt, settings.folders);
  const signature = (id: string) => signed.get(id) ?? '';
  // ComfyUI's set_prompt: only what this prompt could use stays cached.
  const used = new Set(signed.values());
  for (const key of [...cache.keys()]) if (!used.has(key)) cache.delete(key);
  // Listed in the prompt's own order, as execution.py walks the prompt.
  const cached = Object.keys(prompt).filter((id) => order.includes(id) && cache.has(signature(id)));
  record('execution_start', { prompt_id: promptId, timestamp: Date.now() });
  record('execution_cached', { nodes: cached, prompt_id: promptId, timestamp: Date.now() });
  // comfy_execution/progress.py: every node started so far, sent whole at each change.
  const states: Record<string, Record<string, unknown> & { max: number }> = {};
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
  /** A finished node keeps its last max, its value brought up to it. */
  const finished = (node: string) => {
    const max = states[node]?.max ?? 1;
    progressState(node, 'finished', max, max);
  };
  const progress = async (node: string, max: number, preview: boolean) => {
    for (let value = 1; value <= max; value++) {
      await sleep(settings.stepDelayMs);
      // main.py's progress hook: the interrupt check, the state, then the progress message.
      if (isGone() || isInterrupted()) throw new Interrupted();
      progressState(node, 'running', value, max);
      send('progress', { value, max, prompt_id: promptId, node });
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
      const hit = cached.includes(id) ? cache.get(signature(id)) : undefined;
      if (hit) {
        values.set(id, hit.out);
        // Only the outputs are staged (a cached input is not): they tell their earlier images.
        if (entry.outputs.includes(id)) {
          if (hit.images) outputs[id] = { images: hit.images };
          send('executed', {
            node: id,
            display_node: id,
            output: hit.images ? { images: hit.images } : null,
            prompt_id: promptId,
          });
          finished(id);
        }
        continue;
      }
      settings.nodeStarted(id);
      progressState(id, 'running', 0, 1);
      send('executing', { node: id, display_node: id, prompt_id: promptId });
      events.emit('executing', { prompt_id: promptId, node: id });
      // The node runs (held here by holdAt); ComfyUI checks the interrupt as it calls it.
      await settings.mayStart(id);
      await sleep(0);
      if (isGone() || isInterrupted()) throw new Interrupted();
      if (settings.failAtNode === id) {
        throw new Error(`stand-in failure at node ${id}`);
      }
      const result = await runNode({
        node,
        prompt,
        values,
        folders: settings.folders,
        installed: settings.installed(),
        save: settings.save,
        maxSteps: settings.maxSteps,
        progress: (max, preview) => progress(id, max, preview),
      });
      cache.set(signature(id), result);
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
      finished(id);
      values.set(id, result.out);
      executed.push(id);
    }
    record('execution_success', { prompt_id: promptId, timestamp: Date.now() });
  } catch (error) {
    if (isGone()) return undefined;
    const nodeType = prompt[current]?.class_type ?? '';
    // A failed node's outputs are not kept; nor, as in ComfyUI, are those of what follows it.
    cache.delete(signature(current));
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
        // execution.py: the message is "{ex}\n{tips}" (tips empty but for out-of-memory), the
        // inputs each a list of values (objects as their str()), the outputs every node id.
        exception_message: `${error instanceof Error ? error.message : String(error)}\n`,
        exception_type: error instanceof NodeException ? error.pythonType : 'RuntimeError',
        traceback: ['  File "stand-in", line 1, in execute\n'],
        current_inputs: Object.fromEntries(
          Object.entries(prompt[current]?.inputs ?? {}).map(([name, value]) => [
            name,
            [isLink(value) ? `<stand-in output of node ${value[0]}>` : value],
          ]),
        ),
        current_outputs: Object.keys(prompt),
        timestamp: Date.now(),
      });
    }
  }
  if (isGone()) return undefined;
  return { status, outputs, messages };
}
