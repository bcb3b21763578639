/**
 * A stand-in ComfyUI server for tests (unit and e2e): it speaks ComfyUI's real API as
 * `server.py`, `execution.py` and `main.py` do — the routes (also under /api), their JSON
 * shapes, prompt validation with `node_errors` as v0.3.68 answers, a queue run one prompt at a
 * time with node caching between prompts, the websocket message sequence (status,
 * execution_start, execution_cached, progress_state, executing, progress — binary previews only
 * when asked for —, executed, execution_success / execution_error / execution_interrupted,
 * executing with node null), interrupts taking effect at node boundaries and progress steps,
 * history and /view, the upload size limit — and renders real PNG files with sharp instead of
 * running models: the image sizes follow the graph (latents are 1/8, CR Upscale Image's sizes as
 * Comfyroll computes them ...), the pixels are the input image resized and tinted by the seed.
 *
 *   const comfy = await startComfyStandIn();
 *   // ENGINE=comfyui COMFYUI_URLS=comfy.url ... then look at comfy.prompts[0].prompt
 *   await comfy.close();
 *
 * The parts: routes.ts and file-routes.ts (HTTP), validate.ts (prompt validation against
 * node-classes.ts), queue.ts and executor.ts (running prompts), render.ts (what each node
 * produces), websocket.ts (the clients and their messages), folders.ts (input, output, temp).
 */
import { EventEmitter } from 'node:events';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { imageExists, listInputFiles, makeFolders, removeFolders } from './folders.js';
import { availableClasses } from './node-classes.js';
import { PromptQueue } from './queue.js';
import { imageWriter } from './render.js';
import { authorized, httpHandler, type RouteContext } from './routes.js';
import type { ComfyStandIn, ComfyStandInOptions } from './types.js';
import { clientSockets } from './websocket.js';

export type { ComfyStandIn, ComfyStandInOptions, ReceivedPrompt, StandInRequest } from './types.js';

/** The events after which what a test can see of the stand-in may have changed. */
const STATE_EVENTS = [
  'request',
  'prompt',
  'connected',
  'disconnected',
  'executing',
  'progress',
  'done',
];

export async function startComfyStandIn(options: ComfyStandInOptions = {}): Promise<ComfyStandIn> {
  const folders = makeFolders();
  const checkpoints = options.checkpoints ?? ['sd_xl_base_1.0.safetensors'];
  const upscaleModels = options.upscaleModels ?? ['4x-UltraSharp.pth', 'RealESRGAN_x4plus.pth'];
  const ipadapterModels = options.ipadapterModels ?? ['ip-adapter-plus_sdxl_vit-h.safetensors'];
  const clipVisionModels = options.clipVisionModels ?? [
    'CLIP-ViT-H-14-laion2B-s32B-b79K.safetensors',
  ];
  const nodeClasses = availableClasses(options.withoutNodes ?? []);
  const record: RouteContext['record'] = {
    prompts: [],
    refused: [],
    requests: [],
    uploads: [],
    events: new EventEmitter(),
  };
  const socketClients: string[] = [];
  let gone = false;
  const isGone = () => gone;

  const sockets = await clientSockets({
    isGone,
    greet: (sid) => queue.greet(sid),
    previews: options.previews ?? false,
    clientIds: socketClients,
    connected: (sid) => record.events.emit('connected', { sid }),
    disconnected: (sid) => record.events.emit('disconnected', { sid }),
    ...(options.dropMessage ? { dropMessage: options.dropMessage } : {}),
  });
  const installed = () => ({
    checkpoints,
    upscaleModels,
    ipadapterModels,
    clipVisionModels,
    inputFiles: listInputFiles(folders),
    imageExists: (name: string) => imageExists(folders, name),
    classes: nodeClasses,
  });
  const queue = new PromptQueue(
    {
      folders,
      save: imageWriter(folders),
      sockets,
      events: record.events,
      stepDelayMs: options.stepDelayMs ?? 2,
      maxSteps: options.maxSteps ?? 8,
      failAtNode: options.failAtNode,
      installed,
      isGone,
    },
    options.paused ?? false,
  );

  const connections = new Set<Socket>();
  const server = http.createServer(
    httpHandler({
      queue,
      folders,
      installed,
      record,
      maxUploadBytes: options.maxUploadBytes ?? 100 * 1024 * 1024,
      ...(options.requireAuth ? { requireAuth: options.requireAuth } : {}),
      ...(options.slowView ? { slowView: options.slowView } : {}),
    }),
  );
  server.on('connection', (socket) => {
    connections.add(socket);
    socket.on('close', () => connections.delete(socket));
  });
  server.on('upgrade', (req, socket, head) => {
    const route = new URL(req.url ?? '/', 'http://stand-in').pathname;
    if ((route !== '/ws' && route !== '/api/ws') || !authorized(options.requireAuth, req)) {
      socket.destroy();
      return;
    }
    sockets.wss.handleUpgrade(req, socket, head, (ws) => sockets.wss.emit('connection', ws, req));
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
    // A prompt held at a node stops waiting, as the process it stands for is gone.
    queue.wake();
    sockets.terminate();
    for (const socket of connections) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };

  return {
    url: `http://${host}:${address.port}`,
    port: address.port,
    ...record,
    folders,
    socketClients,
    holdAt: (node) => queue.holdAt(node),
    release: () => queue.release(),
    dropSockets: () => sockets.dropAll(),
    removeModel: (name) => {
      // ComfyUI lists its model folders afresh when they change: the name is gone at once.
      for (const list of [checkpoints, upscaleModels, ipadapterModels, clipVisionModels]) {
        const at = list.indexOf(name);
        if (at !== -1) list.splice(at, 1);
      }
    },
    queueRemaining: () => queue.remaining(),
    pause: () => queue.pause(),
    resume: () => queue.resume(),
    until: (check) =>
      new Promise<void>((resolve) => {
        const test = () => {
          if (!check()) return;
          for (const event of STATE_EVENTS) record.events.off(event, test);
          resolve();
        };
        for (const event of STATE_EVENTS) record.events.on(event, test);
        test();
      }),
    crash: stop,
    async close() {
      await stop();
      await removeFolders(folders);
    },
  };
}
