/**
 * A stand-in ComfyUI server for tests (unit and e2e): it speaks ComfyUI's real API as
 * `server.py`, `execution.py` and `main.py` do — the routes (also under /api), their JSON
 * shapes, prompt validation with `node_errors`, a queue run one prompt at a time, the websocket
 * message sequence (status, execution_start, execution_cached, executing, progress with binary
 * PREVIEW_IMAGE frames, executed, execution_success / execution_error / execution_interrupted,
 * executing with node null), history and /view — and renders real PNG files with sharp instead
 * of running models: the image sizes follow the graph (latents are 1/8, CR Upscale Image rounds
 * to its modulus ...), the pixels are the input image resized and tinted by the seed.
 *
 *   const comfy = await startComfyStandIn();
 *   // ENGINE=comfyui COMFYUI_URLS=comfy.url ... then look at comfy.prompts[0].prompt
 *   await comfy.close();
 */
import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { WebSocket, WebSocketServer } from 'ws';
import {
  BINARY_EVENT,
  isLink,
  isRecord,
  PREVIEW_IMAGE_TYPE,
  type ComfyImageRef,
  type ComfyWorkflow,
  type HistoryEntry,
  type NodeError,
  type NodeErrorReason,
  type QueueItem,
} from '../engines/comfyui/api-types.js';

export interface ComfyStandInOptions {
  host?: string;
  /** 0 (default): a free port. */
  port?: number;
  /** The checkpoint files it has (CheckpointLoaderSimple's ckpt_name list). */
  checkpoints?: string[];
  /** The upscale model files it has (CR Upscale Image's and UpscaleModelLoader's lists). */
  upscaleModels?: string[];
  /** Time per sampling step, ms (default 2). */
  stepDelayMs?: number;
  /** Sampling steps reported at most per sampler (its `steps` input, capped; default 8). */
  maxSteps?: number;
  /** Running this node id fails the prompt with execution_error. */
  failAtNode?: string;
  /** Start with the queue held: prompts wait until resume(). */
  paused?: boolean;
}

/** A prompt POST /prompt accepted. */
export interface ReceivedPrompt {
  prompt_id: string;
  number: number;
  client_id: string | undefined;
  prompt: ComfyWorkflow;
}

export interface StandInRequest {
  method: string;
  /** Path and query as received. */
  path: string;
  /** The JSON body, for JSON requests. */
  body?: unknown;
}

export interface ComfyStandIn {
  url: string;
  port: number;
  /** The prompts POST /prompt accepted, in order (assert on their inputs). */
  readonly prompts: ReceivedPrompt[];
  /** POST /prompt bodies refused with a 400, with the answer given. */
  readonly refused: { body: unknown; answer: unknown }[];
  /** Every HTTP request, in order. */
  readonly requests: StandInRequest[];
  /** Files POST /upload/image stored. */
  readonly uploads: { name: string; subfolder: string; type: string; bytes: number }[];
  /**
   * 'prompt' (ReceivedPrompt), 'executing' ({prompt_id, node}), 'progress' ({prompt_id, node,
   * value, max}), 'done' ({prompt_id, status: 'success' | 'error' | 'interrupted'}).
   */
  readonly events: EventEmitter;
  /** Prompts queued and running now (GET /prompt's queue_remaining). */
  queueRemaining(): number;
  /** Hold the queue: the running prompt finishes, the next ones wait. */
  pause(): void;
  resume(): void;
  /** Goes away as a crashed server: every connection cut, the port closed, no more events. */
  crash(): Promise<void>;
  /** Stops and removes its files. */
  close(): Promise<void>;
}

type Value =
  | { kind: 'image'; width: number; height: number; source?: Buffer; tint: number }
  | { kind: 'latent'; width: number; height: number; source?: Buffer; tint: number }
  | { kind: 'other' };

type InputSpec =
  | { kind: 'link'; type: string }
  | { kind: 'INT' | 'FLOAT'; min?: number; max?: number }
  | { kind: 'STRING' }
  | { kind: 'BOOLEAN' }
  | { kind: 'COMBO'; values: (state: State) => string[] };

interface NodeClass {
  required: Record<string, InputSpec>;
  optional?: Record<string, InputSpec>;
  returns: string[];
  output?: boolean;
  category: string;
}

interface State {
  checkpoints: string[];
  upscaleModels: string[];
  inputFiles: string[];
}

const link = (type: string): InputSpec => ({ kind: 'link', type });
const int = (min?: number, max?: number): InputSpec => ({ kind: 'INT', min, max });
const float = (min?: number, max?: number): InputSpec => ({ kind: 'FLOAT', min, max });
const combo = (values: string[] | ((state: State) => string[])): InputSpec => ({
  kind: 'COMBO',
  values: typeof values === 'function' ? values : () => values,
});
const text: InputSpec = { kind: 'STRING' };

const MAX_RESOLUTION = 16384;
const SAMPLERS = ['euler', 'euler_ancestral', 'dpmpp_2m', 'dpmpp_2m_sde', 'dpmpp_sde', 'ddim'];
const SCHEDULERS = ['normal', 'karras', 'exponential', 'sgm_uniform', 'simple', 'ddim_uniform'];
const IMAGE_METHODS = ['nearest-exact', 'bilinear', 'area', 'bicubic', 'lanczos'];
const LATENT_METHODS = ['nearest-exact', 'bilinear', 'area', 'bicubic', 'bislerp'];
const TILING = ['enable', 'x_only', 'y_only', 'disable'];
const IPADAPTER_WEIGHT_TYPES = [
  'linear',
  'ease in',
  'ease out',
  'ease in-out',
  'reverse in-out',
  'weak input',
  'weak output',
  'weak middle',
  'strong middle',
  'style transfer',
  'composition',
  'strong style transfer',
  'style and composition',
  'style transfer precise',
  'composition precise',
];
const IPADAPTER_PRESETS = [
  'LIGHT - SD1.5 only (low strength)',
  'STANDARD (medium strength)',
  'VIT-G (medium strength)',
  'PLUS (high strength)',
  'PLUS FACE (portraits)',
  'FULL FACE - SD1.5 only (portraits stronger)',
];

/** The node classes it knows: ComfyUI's core ones Tessera uses and the custom nodes of docs/comfyui.md. */
const NODE_CLASSES: Record<string, NodeClass> = {
  CheckpointLoaderSimple: {
    required: { ckpt_name: combo((s) => s.checkpoints) },
    returns: ['MODEL', 'CLIP', 'VAE'],
    category: 'loaders',
  },
  CLIPTextEncode: {
    required: { text, clip: link('CLIP') },
    returns: ['CONDITIONING'],
    category: 'conditioning',
  },
  EmptyLatentImage: {
    required: {
      width: int(16, MAX_RESOLUTION),
      height: int(16, MAX_RESOLUTION),
      batch_size: int(1, 4096),
    },
    returns: ['LATENT'],
    category: 'latent',
  },
  KSampler: {
    required: {
      model: link('MODEL'),
      seed: int(0, Number.MAX_SAFE_INTEGER),
      steps: int(1, 10000),
      cfg: float(0, 100),
      sampler_name: combo(SAMPLERS),
      scheduler: combo(SCHEDULERS),
      positive: link('CONDITIONING'),
      negative: link('CONDITIONING'),
      latent_image: link('LATENT'),
      denoise: float(0, 1),
    },
    returns: ['LATENT'],
    category: 'sampling',
  },
  VAEDecode: {
    required: { samples: link('LATENT'), vae: link('VAE') },
    returns: ['IMAGE'],
    category: 'latent',
  },
  VAEEncode: {
    required: { pixels: link('IMAGE'), vae: link('VAE') },
    returns: ['LATENT'],
    category: 'latent',
  },
  LoadImage: {
    required: { image: combo((s) => s.inputFiles) },
    returns: ['IMAGE', 'MASK'],
    category: 'image',
  },
  SaveImage: {
    required: { images: link('IMAGE'), filename_prefix: text },
    returns: [],
    output: true,
    category: 'image',
  },
  PreviewImage: {
    required: { images: link('IMAGE') },
    returns: [],
    output: true,
    category: 'image',
  },
  LatentUpscaleBy: {
    required: {
      samples: link('LATENT'),
      upscale_method: combo(LATENT_METHODS),
      scale_by: float(0.01, 8),
    },
    returns: ['LATENT'],
    category: 'latent',
  },
  ImageScale: {
    required: {
      image: link('IMAGE'),
      upscale_method: combo(IMAGE_METHODS),
      width: int(0, MAX_RESOLUTION),
      height: int(0, MAX_RESOLUTION),
      crop: combo(['disabled', 'center']),
    },
    returns: ['IMAGE'],
    category: 'image/upscaling',
  },
  ImageScaleBy: {
    required: {
      image: link('IMAGE'),
      upscale_method: combo(IMAGE_METHODS),
      scale_by: float(0.01, 8),
    },
    returns: ['IMAGE'],
    category: 'image/upscaling',
  },
  UpscaleModelLoader: {
    required: { model_name: combo((s) => s.upscaleModels) },
    returns: ['UPSCALE_MODEL'],
    category: 'loaders',
  },
  ImageUpscaleWithModel: {
    required: { upscale_model: link('UPSCALE_MODEL'), image: link('IMAGE') },
    returns: ['IMAGE'],
    category: 'image/upscaling',
  },
  // ComfyUI_IPAdapter_plus
  IPAdapterUnifiedLoader: {
    required: { model: link('MODEL'), preset: combo(IPADAPTER_PRESETS) },
    optional: { ipadapter: link('IPADAPTER') },
    returns: ['MODEL', 'IPADAPTER'],
    category: 'ipadapter',
  },
  IPAdapterAdvanced: {
    required: {
      model: link('MODEL'),
      ipadapter: link('IPADAPTER'),
      image: link('IMAGE'),
      weight: float(-1, 5),
      weight_type: combo(IPADAPTER_WEIGHT_TYPES),
      combine_embeds: combo(['concat', 'add', 'subtract', 'average', 'norm average']),
      start_at: float(0, 1),
      end_at: float(0, 1),
      embeds_scaling: combo(['V only', 'K+V', 'K+V w/ C penalty', 'K+mean(V) w/ C penalty']),
    },
    optional: {
      image_negative: link('IMAGE'),
      attn_mask: link('MASK'),
      clip_vision: link('CLIP_VISION'),
    },
    returns: ['MODEL'],
    category: 'ipadapter',
  },
  // comfyui-seamless-tiling (spinagon)
  SeamlessTile: {
    required: {
      model: link('MODEL'),
      tiling: combo(TILING),
      copy_model: combo(['Make a copy', 'Modify in place']),
    },
    returns: ['MODEL'],
    category: 'conditioning',
  },
  CircularVAEDecode: {
    required: { samples: link('LATENT'), vae: link('VAE'), tiling: combo(TILING) },
    returns: ['IMAGE'],
    category: 'latent',
  },
  // ComfyUI_Comfyroll_CustomNodes
  'CR Upscale Image': {
    required: {
      image: link('IMAGE'),
      upscale_model: combo((s) => s.upscaleModels),
      mode: combo(['rescale', 'resize']),
      rescale_factor: float(0.01, 16),
      resize_width: int(1, 48000),
      resampling_method: combo(['lanczos', 'nearest', 'bilinear', 'bicubic']),
      supersample: combo(['true', 'false']),
      rounding_modulus: int(8, 1024),
    },
    returns: ['IMAGE', 'STRING'],
    category: 'Comfyroll/Upscale',
  },
};

/** A node's class (validation has made sure it is known). */
function classOf(node: { class_type: string } | undefined): NodeClass {
  const spec = node ? NODE_CLASSES[node.class_type] : undefined;
  if (!spec) throw new Error(`Unknown node class ${String(node?.class_type)}`);
  return spec;
}

interface QueueEntry {
  number: number;
  promptId: string;
  prompt: ComfyWorkflow;
  extraData: Record<string, unknown>;
  outputs: string[];
}

class Interrupted extends Error {}

export async function startComfyStandIn(options: ComfyStandInOptions = {}): Promise<ComfyStandIn> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'comfy-stand-in-'));
  const dirs = {
    input: path.join(root, 'input'),
    output: path.join(root, 'output'),
    temp: path.join(root, 'temp'),
  };
  for (const dir of Object.values(dirs)) fs.mkdirSync(dir, { recursive: true });
  const checkpoints = options.checkpoints ?? ['sd_xl_base_1.0.safetensors'];
  const upscaleModels = options.upscaleModels ?? ['4x-UltraSharp.pth', 'RealESRGAN_x4plus.pth'];
  const stepDelayMs = options.stepDelayMs ?? 2;
  const maxSteps = options.maxSteps ?? 8;
  const previewJpeg = await sharp({
    create: { width: 64, height: 64, channels: 3, background: '#808080' },
  })
    .jpeg()
    .toBuffer();

  const prompts: ReceivedPrompt[] = [];
  const refused: { body: unknown; answer: unknown }[] = [];
  const requests: StandInRequest[] = [];
  const uploads: ComfyStandIn['uploads'] = [];
  const events = new EventEmitter();
  const pending: QueueEntry[] = [];
  const history = new Map<string, HistoryEntry>();
  const sockets = new Map<string, WebSocket>();
  const connections = new Set<Socket>();
  let running: QueueEntry | undefined;
  let runningClient: string | undefined;
  let lastNode: string | undefined;
  let counter = 0;
  let imageCounter = 0;
  let paused = options.paused ?? false;
  let interruptRequested = false;
  let gone = false;

  const queueRemaining = () => pending.length + (running ? 1 : 0);
  const queueInfo = () => ({ exec_info: { queue_remaining: queueRemaining() } });
  const queueItem = (e: QueueEntry): QueueItem => [
    e.number,
    e.promptId,
    e.prompt,
    e.extraData,
    e.outputs,
  ];

  // --- websocket ------------------------------------------------------------------------------

  const wss = new WebSocketServer({ noServer: true });
  const sendJson = (sid: string | undefined, type: string, data: unknown) => {
    if (gone) return;
    const message = JSON.stringify({ type, data });
    if (sid === undefined) {
      for (const ws of sockets.values()) if (ws.readyState === WebSocket.OPEN) ws.send(message);
      return;
    }
    const ws = sockets.get(sid);
    if (ws?.readyState === WebSocket.OPEN) ws.send(message);
  };
  const sendPreview = (sid: string | undefined) => {
    if (gone || sid === undefined) return;
    const ws = sockets.get(sid);
    if (ws?.readyState !== WebSocket.OPEN) return;
    const header = Buffer.alloc(8);
    header.writeUInt32BE(BINARY_EVENT.PREVIEW_IMAGE, 0);
    header.writeUInt32BE(PREVIEW_IMAGE_TYPE.JPEG, 4);
    ws.send(Buffer.concat([header, previewJpeg]), { binary: true });
  };
  const queueUpdated = () => sendJson(undefined, 'status', { status: queueInfo() });

  wss.on('connection', (ws, request) => {
    const query = new URL(request.url ?? '/', 'http://stand-in').searchParams;
    let sid = query.get('clientId') ?? '';
    if (sid) sockets.get(sid)?.close();
    else sid = randomUUID().replace(/-/g, '');
    sockets.set(sid, ws);
    ws.on('close', () => {
      if (sockets.get(sid) === ws) sockets.delete(sid);
    });
    ws.send(JSON.stringify({ type: 'status', data: { status: queueInfo(), sid } }));
    if (runningClient === sid && lastNode !== undefined) {
      ws.send(JSON.stringify({ type: 'executing', data: { node: lastNode } }));
    }
  });

  // --- validation (execution.py validate_prompt) ----------------------------------------------

  const listInputFiles = (): string[] => {
    const out: string[] = [];
    const walk = (dir: string, prefix: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        if (entry.isDirectory()) walk(path.join(dir, entry.name), `${prefix}${entry.name}/`);
        else out.push(`${prefix}${entry.name}`);
      }
    };
    walk(dirs.input, '');
    return out.sort();
  };

  type Validation =
    | { ok: true; outputs: string[]; nodeErrors: Record<string, NodeError> }
    | { ok: false; status: 400; answer: unknown };

  const validate = (prompt: unknown): Validation => {
    const invalid = (error: NodeErrorReason, nodeErrors: unknown = []): Validation => ({
      ok: false,
      status: 400,
      answer: { error, node_errors: nodeErrors },
    });
    if (!isRecord(prompt)) {
      return invalid({ type: 'invalid_prompt', message: 'Prompt is not a dict', details: '' });
    }
    for (const [id, node] of Object.entries(prompt)) {
      if (!isRecord(node) || typeof node.class_type !== 'string') {
        return invalid({
          type: 'invalid_prompt',
          message: 'Cannot execute because a node is missing the class_type property.',
          details: `Node ID '#${id}'`,
          extra_info: {},
        });
      }
      if (!(node.class_type in NODE_CLASSES)) {
        const title = isRecord(node._meta) ? node._meta.title : undefined;
        return invalid(
          {
            type: 'missing_node_type',
            message: `Node '${String(title ?? node.class_type)}' not found. The custom node may not be installed.`,
            details: `Node ID '#${id}'`,
            extra_info: {
              node_id: id,
              class_type: node.class_type,
              node_title: title ?? node.class_type,
            },
          },
          {},
        );
      }
    }
    const workflow = prompt as ComfyWorkflow;
    const outputs = Object.keys(workflow).filter((id) => classOf(workflow[id]).output === true);
    if (outputs.length === 0) {
      return invalid({
        type: 'prompt_no_outputs',
        message: 'Prompt has no outputs',
        details: '',
        extra_info: {},
      });
    }
    const state: State = { checkpoints, upscaleModels, inputFiles: listInputFiles() };
    const validated = new Map<string, { ok: boolean; reasons: NodeErrorReason[] }>();
    const check = (id: string): boolean => {
      const known = validated.get(id);
      if (known) return known.ok;
      validated.set(id, { ok: true, reasons: [] });
      const node = workflow[id];
      if (!node) return false;
      const spec = classOf(node);
      const reasons: NodeErrorReason[] = [];
      let ok = true;
      const inputs = [
        ...Object.entries(spec.required).map(([name, s]) => [name, s, true] as const),
        ...Object.entries(spec.optional ?? {}).map(([name, s]) => [name, s, false] as const),
      ];
      for (const [name, input, required] of inputs) {
        if (!(name in node.inputs)) {
          if (required) {
            reasons.push({
              type: 'required_input_missing',
              message: 'Required input is missing',
              details: name,
              extra_info: { input_name: name },
            });
          }
          continue;
        }
        const value = node.inputs[name];
        if (Array.isArray(value)) {
          if (!isLink(value)) {
            reasons.push({
              type: 'bad_linked_input',
              message: 'Bad linked input, must be a length-2 list of [node_id, slot_index]',
              details: name,
              extra_info: { input_name: name, received_value: value },
            });
            continue;
          }
          const from = workflow[value[0]];
          if (!from) {
            reasons.push({
              type: 'exception_during_inner_validation',
              message: 'Exception when validating inner node',
              details: `'${value[0]}'`,
              extra_info: { input_name: name, exception_type: 'KeyError', linked_node: value },
            });
            continue;
          }
          const received = classOf(from).returns[value[1]];
          const wanted = input.kind === 'link' ? input.type : input.kind;
          if (received !== wanted) {
            reasons.push({
              type: 'return_type_mismatch',
              message: 'Return type mismatch between linked nodes',
              details: `${name}, received_type(${String(received)}) mismatch input_type(${wanted})`,
              extra_info: { input_name: name, received_type: received, linked_node: value },
            });
            continue;
          }
          if (!check(value[0])) ok = false;
          continue;
        }
        switch (input.kind) {
          case 'link':
            reasons.push({
              type: 'bad_linked_input',
              message: 'Bad linked input, must be a length-2 list of [node_id, slot_index]',
              details: name,
              extra_info: { input_name: name, received_value: value },
            });
            break;
          case 'INT':
          case 'FLOAT': {
            const n = typeof value === 'number' ? value : Number(value);
            if (
              typeof value === 'boolean' ||
              value === null ||
              value === '' ||
              !Number.isFinite(n) ||
              (input.kind === 'INT' && !Number.isInteger(n))
            ) {
              reasons.push({
                type: 'invalid_input_type',
                message: `Failed to convert an input value to a ${input.kind} value`,
                details: `${name}, ${String(value)}, invalid literal`,
                extra_info: { input_name: name, received_value: value },
              });
              break;
            }
            if (input.min !== undefined && n < input.min) {
              reasons.push({
                type: 'value_smaller_than_min',
                message: `Value ${n} smaller than min of ${input.min}`,
                details: name,
                extra_info: { input_name: name, received_value: n },
              });
            } else if (input.max !== undefined && n > input.max) {
              reasons.push({
                type: 'value_bigger_than_max',
                message: `Value ${n} bigger than max of ${input.max}`,
                details: name,
                extra_info: { input_name: name, received_value: n },
              });
            }
            break;
          }
          case 'STRING':
            if (typeof value !== 'string' && typeof value !== 'number') {
              reasons.push({
                type: 'invalid_input_type',
                message: 'Failed to convert an input value to a STRING value',
                details: `${name}, ${String(value)}`,
                extra_info: { input_name: name, received_value: value },
              });
            }
            break;
          case 'BOOLEAN':
            break;
          case 'COMBO': {
            const values = input.values(state);
            if (node.class_type === 'LoadImage' && name === 'image') {
              if (!values.includes(String(value))) {
                reasons.push({
                  type: 'custom_validation_failed',
                  message: 'Custom validation failed for node',
                  details: `image - Invalid image file: ${String(value)}`,
                  extra_info: { input_name: name, received_value: value },
                });
              }
            } else if (!values.includes(String(value))) {
              const list =
                values.length > 20
                  ? `(list of length ${values.length})`
                  : `[${values.map((v) => `'${v}'`).join(', ')}]`;
              reasons.push({
                type: 'value_not_in_list',
                message: 'Value not in list',
                details: `${name}: '${String(value)}' not in ${list}`,
                extra_info: { input_name: name, received_value: value },
              });
            }
            break;
          }
        }
      }
      if (reasons.length > 0) ok = false;
      validated.set(id, { ok, reasons });
      return ok;
    };
    const good: string[] = [];
    const failed: { output: string; reasons: NodeErrorReason[] }[] = [];
    const nodeErrors: Record<string, NodeError> = {};
    for (const output of outputs) {
      if (check(output)) {
        good.push(output);
        continue;
      }
      failed.push({ output, reasons: validated.get(output)?.reasons ?? [] });
      for (const [id, result] of validated) {
        if (result.ok || result.reasons.length === 0) continue;
        nodeErrors[id] ??= {
          errors: result.reasons,
          dependent_outputs: [],
          class_type: workflow[id]?.class_type ?? '',
        };
        if (!nodeErrors[id].dependent_outputs.includes(output)) {
          nodeErrors[id].dependent_outputs.push(output);
        }
      }
    }
    if (good.length === 0) {
      const details = Object.values(nodeErrors)
        .flatMap((n) => n.errors.map((e) => `${e.message}: ${e.details}`))
        .join('\n');
      return invalid(
        {
          type: 'prompt_outputs_failed_validation',
          message: 'Prompt outputs failed validation',
          details,
          extra_info: {},
        },
        nodeErrors,
      );
    }
    return { ok: true, outputs: good, nodeErrors };
  };

  // --- execution (execution.py PromptExecutor, main.py prompt_worker) -------------------------

  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  const order = (prompt: ComfyWorkflow, outputs: string[]): string[] => {
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
  };

  const roundUp = (n: number, m: number) => (n % m === 0 ? n : n + (m - (n % m)));

  const saveImage = async (
    value: Value,
    prefix: string,
    type: 'output' | 'temp',
  ): Promise<ComfyImageRef> => {
    if (value.kind !== 'image') throw new Error('SaveImage needs an IMAGE');
    const normalized = prefix.replace(/\\/g, '/');
    const subfolder = path.posix.dirname(normalized) === '.' ? '' : path.posix.dirname(normalized);
    const base = path.posix.basename(normalized) || 'ComfyUI';
    const filename = `${base}_${String(++imageCounter).padStart(5, '0')}_.png`;
    const dir = path.join(type === 'output' ? dirs.output : dirs.temp, subfolder);
    await fsp.mkdir(dir, { recursive: true });
    const hue = value.tint % 360;
    const pixels = value.source
      ? sharp(value.source, { limitInputPixels: false })
          .resize(value.width, value.height, { fit: 'fill' })
          .removeAlpha()
      : sharp({
          create: { width: value.width, height: value.height, channels: 3, background: '#8a6a4a' },
        });
    await pixels.modulate({ hue }).png({ compressionLevel: 1 }).toFile(path.join(dir, filename));
    return { filename, subfolder, type };
  };

  const execute = async (entry: QueueEntry): Promise<void> => {
    const { promptId, prompt } = entry;
    const sid =
      typeof entry.extraData.client_id === 'string' ? entry.extraData.client_id : undefined;
    runningClient = sid;
    const messages: [string, Record<string, unknown>][] = [];
    const record = (type: string, data: Record<string, unknown>) => {
      messages.push([type, data]);
      sendJson(sid, type, data);
    };
    record('execution_start', { prompt_id: promptId, timestamp: Date.now() });
    record('execution_cached', { nodes: [], prompt_id: promptId, timestamp: Date.now() });
    const values = new Map<string, Value[]>();
    const uiOutputs: HistoryEntry['outputs'] = {};
    const executed: string[] = [];
    const input = (node: string, name: string): Value => {
      const linked = prompt[node]?.inputs[name];
      if (!isLink(linked)) return { kind: 'other' };
      return values.get(linked[0])?.[linked[1]] ?? { kind: 'other' };
    };
    const num = (node: string, name: string) => Number(prompt[node]?.inputs[name]);
    const progress = async (node: string, max: number, preview: boolean) => {
      for (let value = 1; value <= max; value++) {
        await sleep(stepDelayMs);
        if (gone) throw new Interrupted();
        if (interruptRequested) throw new Interrupted();
        sendJson(sid, 'progress', { value, max, prompt_id: promptId, node });
        if (preview) sendPreview(sid);
        events.emit('progress', { prompt_id: promptId, node, value, max });
      }
    };
    let status: 'success' | 'error' | 'interrupted' = 'success';
    let current = '';
    try {
      for (const id of order(prompt, entry.outputs)) {
        current = id;
        if (gone || interruptRequested) throw new Interrupted();
        lastNode = id;
        sendJson(sid, 'executing', { node: id, display_node: id, prompt_id: promptId });
        events.emit('executing', { prompt_id: promptId, node: id });
        await sleep(0);
        if (options.failAtNode === id) {
          throw new Error(`stand-in failure at node ${id}`);
        }
        const node = prompt[id];
        if (!node) continue;
        const spec = classOf(node);
        let out: Value[] = spec.returns.map(() => ({ kind: 'other' }) as Value);
        switch (node.class_type) {
          case 'LoadImage': {
            const file = path.join(dirs.input, String(node.inputs.image));
            const source = await fsp.readFile(file);
            const meta = await sharp(source).metadata();
            out = [
              { kind: 'image', width: meta.width ?? 1, height: meta.height ?? 1, source, tint: 0 },
              { kind: 'other' },
            ];
            break;
          }
          case 'EmptyLatentImage':
            out = [
              {
                kind: 'latent',
                width: Math.floor(num(id, 'width') / 8),
                height: Math.floor(num(id, 'height') / 8),
                tint: 0,
              },
            ];
            break;
          case 'VAEEncode': {
            const image = input(id, 'pixels');
            if (image.kind === 'image') {
              out = [
                {
                  kind: 'latent',
                  width: Math.floor(image.width / 8),
                  height: Math.floor(image.height / 8),
                  ...(image.source ? { source: image.source } : {}),
                  tint: image.tint,
                },
              ];
            }
            break;
          }
          case 'LatentUpscaleBy': {
            const latent = input(id, 'samples');
            const by = num(id, 'scale_by');
            if (latent.kind === 'latent') {
              out = [
                {
                  ...latent,
                  width: Math.round(latent.width * by),
                  height: Math.round(latent.height * by),
                },
              ];
            }
            break;
          }
          case 'KSampler': {
            const latent = input(id, 'latent_image');
            await progress(id, Math.min(maxSteps, num(id, 'steps')), true);
            if (latent.kind === 'latent') {
              out = [{ ...latent, tint: latent.tint + (num(id, 'seed') % 360) }];
            }
            break;
          }
          case 'VAEDecode':
          case 'CircularVAEDecode': {
            const latent = input(id, 'samples');
            if (latent.kind === 'latent') {
              out = [
                { ...latent, kind: 'image', width: latent.width * 8, height: latent.height * 8 },
              ];
            }
            break;
          }
          case 'ImageScale': {
            const image = input(id, 'image');
            if (image.kind === 'image') {
              let width = num(id, 'width');
              let height = num(id, 'height');
              if (width === 0 && height === 0) [width, height] = [image.width, image.height];
              else if (width === 0) width = Math.round((image.width * height) / image.height);
              else if (height === 0) height = Math.round((image.height * width) / image.width);
              out = [{ ...image, width, height }];
            }
            break;
          }
          case 'ImageScaleBy': {
            const image = input(id, 'image');
            const by = num(id, 'scale_by');
            if (image.kind === 'image') {
              out = [
                {
                  ...image,
                  width: Math.round(image.width * by),
                  height: Math.round(image.height * by),
                },
              ];
            }
            break;
          }
          case 'ImageUpscaleWithModel': {
            const image = input(id, 'image');
            await progress(id, 4, false);
            if (image.kind === 'image') {
              out = [{ ...image, width: image.width * 4, height: image.height * 4 }];
            }
            break;
          }
          case 'CR Upscale Image': {
            const image = input(id, 'image');
            await progress(id, 4, false);
            if (image.kind === 'image') {
              const modulus = num(id, 'rounding_modulus');
              let width: number;
              let height: number;
              if (node.inputs.mode === 'resize') {
                width = num(id, 'resize_width');
                height = Math.trunc((image.height * width) / image.width);
              } else {
                const factor = num(id, 'rescale_factor');
                width = Math.trunc(image.width * factor);
                height = Math.trunc(image.height * factor);
              }
              out = [
                { ...image, width: roundUp(width, modulus), height: roundUp(height, modulus) },
                { kind: 'other' },
              ];
            }
            break;
          }
          case 'SaveImage':
          case 'PreviewImage': {
            const image = input(id, 'images');
            const saved = await saveImage(
              image,
              node.class_type === 'SaveImage'
                ? String(node.inputs.filename_prefix)
                : 'ComfyUI_temp',
              node.class_type === 'SaveImage' ? 'output' : 'temp',
            );
            uiOutputs[id] = { images: [saved] };
            if (gone) throw new Interrupted();
            sendJson(sid, 'executed', {
              node: id,
              display_node: id,
              output: { images: [saved] },
              prompt_id: promptId,
            });
            break;
          }
          default:
            break;
        }
        values.set(id, out);
        executed.push(id);
      }
      record('execution_success', { prompt_id: promptId, timestamp: Date.now() });
    } catch (error) {
      if (gone) return;
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
    if (gone) return;
    history.set(promptId, {
      prompt: queueItem(entry),
      outputs: uiOutputs,
      status: {
        status_str: status === 'success' ? 'success' : 'error',
        completed: status === 'success',
        messages,
      },
      meta: Object.fromEntries(
        Object.keys(uiOutputs).map((id) => [
          id,
          { node_id: id, display_node: id, parent_node: null, real_node_id: id },
        ]),
      ),
    });
    running = undefined;
    lastNode = undefined;
    runningClient = undefined;
    interruptRequested = false;
    queueUpdated();
    sendJson(sid, 'executing', { node: null, prompt_id: promptId });
    events.emit('done', { prompt_id: promptId, status });
  };

  const pump = () => {
    if (gone || paused || running || pending.length === 0) return;
    pending.sort((a, b) => a.number - b.number);
    const entry = pending.shift();
    if (!entry) return;
    running = entry;
    interruptRequested = false;
    queueUpdated();
    void execute(entry).finally(() => setImmediate(pump));
  };

  // --- HTTP (server.py routes, also under /api) -----------------------------------------------

  const readBody = (req: http.IncomingMessage): Promise<Buffer> =>
    new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => resolve(Buffer.concat(chunks)));
      req.on('error', reject);
    });
  const json = (res: http.ServerResponse, status: number, body: unknown) => {
    const data = JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
    res.end(data);
  };
  const empty = (res: http.ServerResponse, status = 200) => {
    res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' });
    res.end();
  };
  const inside = (root: string, candidate: string) => {
    const relative = path.relative(root, candidate);
    return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
  };

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const route = url.pathname.startsWith('/api/') ? url.pathname.slice(4) : url.pathname;
    const method = req.method ?? 'GET';
    const raw = method === 'POST' ? await readBody(req) : Buffer.alloc(0);
    const isJson = (req.headers['content-type'] ?? '').includes('application/json');
    let body: unknown;
    if (isJson && raw.length > 0) {
      try {
        body = JSON.parse(raw.toString('utf8'));
      } catch {
        requests.push({ method, path: `${url.pathname}${url.search}` });
        return json(res, 400, { error: 'invalid JSON', node_errors: [] });
      }
    }
    requests.push({
      method,
      path: `${url.pathname}${url.search}`,
      ...(body !== undefined ? { body } : {}),
    });

    if (method === 'GET' && route === '/prompt') return json(res, 200, queueInfo());
    if (method === 'POST' && route === '/prompt') {
      if (!isRecord(body) || !('prompt' in body)) {
        const answer = {
          error: {
            type: 'no_prompt',
            message: 'No prompt provided',
            details: 'No prompt provided',
            extra_info: {},
          },
          node_errors: {},
        };
        refused.push({ body, answer });
        return json(res, 400, answer);
      }
      const checked = validate(body.prompt);
      if (!checked.ok) {
        refused.push({ body, answer: checked.answer });
        return json(res, checked.status, checked.answer);
      }
      const number =
        typeof body.number === 'number'
          ? body.number
          : body.front === true
            ? -counter++
            : counter++;
      const promptId = typeof body.prompt_id === 'string' ? body.prompt_id : randomUUID();
      const extraData = isRecord(body.extra_data) ? { ...body.extra_data } : {};
      if (typeof body.client_id === 'string') extraData.client_id = body.client_id;
      const entry: QueueEntry = {
        number,
        promptId,
        prompt: body.prompt as ComfyWorkflow,
        extraData,
        outputs: checked.outputs,
      };
      const received: ReceivedPrompt = {
        prompt_id: promptId,
        number,
        client_id: typeof body.client_id === 'string' ? body.client_id : undefined,
        prompt: structuredClone(entry.prompt),
      };
      prompts.push(received);
      pending.push(entry);
      json(res, 200, { prompt_id: promptId, number, node_errors: checked.nodeErrors });
      events.emit('prompt', received);
      queueUpdated();
      setImmediate(pump);
      return;
    }
    if (method === 'GET' && route === '/queue') {
      return json(res, 200, {
        queue_running: running ? [queueItem(running)] : [],
        queue_pending: [...pending].sort((a, b) => a.number - b.number).map(queueItem),
      });
    }
    if (method === 'POST' && route === '/queue') {
      if (isRecord(body)) {
        if (body.clear === true) pending.length = 0;
        if (Array.isArray(body.delete)) {
          for (const id of body.delete) {
            const at = pending.findIndex((e) => e.promptId === id);
            if (at >= 0) pending.splice(at, 1);
          }
        }
        queueUpdated();
      }
      return empty(res);
    }
    if (method === 'POST' && route === '/interrupt') {
      const wanted =
        isRecord(body) && typeof body.prompt_id === 'string' ? body.prompt_id : undefined;
      if (running && (wanted === undefined || wanted === running.promptId))
        interruptRequested = true;
      return empty(res);
    }
    if (method === 'GET' && route === '/history') {
      const max = Number(url.searchParams.get('max_items') ?? Number.NaN);
      const all = [...history.entries()];
      return json(res, 200, Object.fromEntries(Number.isFinite(max) ? all.slice(-max) : all));
    }
    if (method === 'GET' && route.startsWith('/history/')) {
      const id = decodeURIComponent(route.slice('/history/'.length));
      const entry = history.get(id);
      return json(res, 200, entry ? { [id]: entry } : {});
    }
    if (method === 'POST' && route === '/history') {
      if (isRecord(body)) {
        if (body.clear === true) history.clear();
        if (Array.isArray(body.delete)) for (const id of body.delete) history.delete(String(id));
      }
      return empty(res);
    }
    if (method === 'GET' && route === '/view') {
      const filename = url.searchParams.get('filename');
      if (!filename) return empty(res, 404);
      if (filename.startsWith('/') || filename.includes('..')) return empty(res, 400);
      const type = url.searchParams.get('type') ?? 'output';
      const dir =
        type === 'input'
          ? dirs.input
          : type === 'temp'
            ? dirs.temp
            : type === 'output'
              ? dirs.output
              : undefined;
      if (!dir) return empty(res, 400);
      const folder = path.resolve(dir, url.searchParams.get('subfolder') ?? '');
      if (!inside(dir, folder)) return empty(res, 403);
      const file = path.join(folder, path.basename(filename));
      if (!fs.existsSync(file) || !fs.statSync(file).isFile()) return empty(res, 404);
      res.writeHead(200, {
        'content-type': filename.endsWith('.png') ? 'image/png' : 'application/octet-stream',
        'content-disposition': `filename="${path.basename(filename)}"`,
        'content-length': String(fs.statSync(file).size),
      });
      fs.createReadStream(file).pipe(res);
      return;
    }
    if (method === 'POST' && route === '/upload/image') {
      let form: FormData;
      try {
        form = await new Response(new Uint8Array(raw), {
          headers: { 'content-type': req.headers['content-type'] ?? '' },
        }).formData();
      } catch {
        return empty(res, 400);
      }
      const image = form.get('image');
      if (!(image instanceof File) || !image.name) return empty(res, 400);
      const type = String(form.get('type') ?? 'input');
      const dir = type === 'temp' ? dirs.temp : type === 'output' ? dirs.output : dirs.input;
      const subfolder = String(form.get('subfolder') ?? '');
      const folder = path.resolve(dir, path.normalize(subfolder));
      let filename = path.basename(image.name);
      if (!inside(dir, path.join(folder, filename))) return empty(res, 400);
      await fsp.mkdir(folder, { recursive: true });
      const data = Buffer.from(await image.arrayBuffer());
      const overwrite = ['true', '1'].includes(String(form.get('overwrite') ?? ''));
      if (!overwrite) {
        const { name, ext } = path.parse(filename);
        for (let i = 1; fs.existsSync(path.join(folder, filename)); i++) {
          if (fs.readFileSync(path.join(folder, filename)).equals(data)) break;
          filename = `${name} (${i})${ext}`;
        }
      }
      await fsp.writeFile(path.join(folder, filename), data);
      uploads.push({
        name: filename,
        subfolder,
        type: type === 'temp' || type === 'output' ? type : 'input',
        bytes: data.length,
      });
      return json(res, 200, {
        name: filename,
        subfolder,
        type: type === 'temp' || type === 'output' ? type : 'input',
      });
    }
    if (method === 'GET' && route === '/system_stats') {
      return json(res, 200, {
        system: {
          os: 'posix',
          ram_total: os.totalmem(),
          ram_free: os.freemem(),
          comfyui_version: 'stand-in',
          python_version: 'none',
          pytorch_version: 'none',
          embedded_python: false,
          argv: ['main.py'],
        },
        devices: [
          {
            name: 'stand-in',
            type: 'cpu',
            index: null,
            vram_total: 0,
            vram_free: 0,
            torch_vram_total: 0,
            torch_vram_free: 0,
          },
        ],
      });
    }
    if (method === 'GET' && (route === '/object_info' || route.startsWith('/object_info/'))) {
      const only = route.startsWith('/object_info/')
        ? decodeURIComponent(route.slice(13))
        : undefined;
      const state: State = { checkpoints, upscaleModels, inputFiles: listInputFiles() };
      const describe = (specs: Record<string, InputSpec>) =>
        Object.fromEntries(
          Object.entries(specs).map(([name, spec]) => [
            name,
            spec.kind === 'link'
              ? [spec.type]
              : spec.kind === 'COMBO'
                ? [spec.values(state)]
                : spec.kind === 'INT' || spec.kind === 'FLOAT'
                  ? [spec.kind, { min: spec.min, max: spec.max }]
                  : [spec.kind],
          ]),
        );
      const info = Object.fromEntries(
        Object.entries(NODE_CLASSES)
          .filter(([name]) => only === undefined || name === only)
          .map(([name, spec]) => [
            name,
            {
              input: { required: describe(spec.required), optional: describe(spec.optional ?? {}) },
              input_order: {
                required: Object.keys(spec.required),
                optional: Object.keys(spec.optional ?? {}),
              },
              output: spec.returns,
              output_is_list: spec.returns.map(() => false),
              output_name: spec.returns,
              name,
              display_name: name,
              description: '',
              python_module: 'stand-in',
              category: spec.category,
              output_node: spec.output === true,
            },
          ]),
      );
      return json(res, 200, info);
    }
    return empty(res, 404);
  };

  const server = http.createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) json(res, 500, { error: String(error) });
      else res.destroy();
    });
  });
  server.on('connection', (socket) => {
    connections.add(socket);
    socket.on('close', () => connections.delete(socket));
  });
  server.on('upgrade', (req, socket, head) => {
    const route = new URL(req.url ?? '/', 'http://stand-in').pathname;
    if (route !== '/ws' && route !== '/api/ws') {
      socket.destroy();
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;

  const stop = async () => {
    if (gone) return;
    gone = true;
    for (const ws of wss.clients) ws.terminate();
    for (const socket of connections) socket.destroy();
    wss.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };

  return {
    url: `http://${host}:${address.port}`,
    port: address.port,
    prompts,
    refused,
    requests,
    uploads,
    events,
    queueRemaining,
    pause() {
      paused = true;
    },
    resume() {
      paused = false;
      setImmediate(pump);
    },
    crash: stop,
    async close() {
      await stop();
      await fsp.rm(root, { recursive: true, force: true });
    },
  };
}
