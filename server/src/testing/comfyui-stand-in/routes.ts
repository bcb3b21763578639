/**
 * The HTTP routes of ComfyUI's server.py (each also under /api): /prompt, /queue, /interrupt,
 * /history, /view, /upload/image, /system_stats and /object_info. Every request is recorded.
 */
import { randomUUID } from 'node:crypto';
import type http from 'node:http';
import os from 'node:os';
import { isRecord } from '../../engines/comfyui/api-types.js';
import type { QueueEntry } from './executor.js';
import { uploadImage, view } from './file-routes.js';
import type { Folders } from './folders.js';
import type { InstalledFiles } from './node-classes.js';
import { objectInfo } from './object-info.js';
import type { PromptQueue } from './queue.js';
import { empty, json, readBody, serverError } from './respond.js';
import type { ComfyStandIn, ComfyStandInOptions, ReceivedPrompt, StandInRequest } from './types.js';
import { validatePrompt } from './validate.js';

export interface RouteContext {
  queue: PromptQueue;
  folders: Folders;
  /** The models it has and the files of its input folder now. */
  installed(): InstalledFiles;
  /** Where requests, prompts, refusals, uploads and 'prompt' events are recorded. */
  record: Pick<ComfyStandIn, 'prompts' | 'refused' | 'requests' | 'uploads' | 'events'>;
  /** aiohttp's client_max_size: a larger request body answers 413. */
  maxUploadBytes: number;
  requireAuth?: ComfyStandInOptions['requireAuth'];
  slowView?: ComfyStandInOptions['slowView'];
}

/** The check of a proxy in front of ComfyUI (ComfyUI itself has none). */
export function authorized(
  required: ComfyStandInOptions['requireAuth'],
  req: http.IncomingMessage,
): boolean {
  if (!required) return true;
  const url = new URL(req.url ?? '/', 'http://stand-in');
  if (
    required.header &&
    req.headers[required.header.name.toLowerCase()] !== required.header.value
  ) {
    return false;
  }
  if (required.query && url.searchParams.get(required.query.name) !== required.query.value) {
    return false;
  }
  return true;
}

/** The POST routes whose handlers read a JSON body. */
const JSON_ROUTES = ['/prompt', '/queue', '/interrupt', '/history'];

/** The request listener of the stand-in's HTTP server. */
export function httpHandler(
  context: RouteContext,
): (req: http.IncomingMessage, res: http.ServerResponse) => void {
  return (req, res) => {
    handle(context, req, res).catch((error: unknown) => {
      if (!res.headersSent) json(res, 500, { error: String(error) });
      else res.destroy();
    });
  };
}

async function handle(
  context: RouteContext,
  req: http.IncomingMessage,
  res: http.ServerResponse,
): Promise<void> {
  const { queue, folders, record } = context;
  const url = new URL(req.url ?? '/', 'http://stand-in');
  const route = url.pathname.startsWith('/api/') ? url.pathname.slice(4) : url.pathname;
  const method = req.method ?? 'GET';
  if (!authorized(context.requireAuth, req)) return empty(res, 401);
  const raw = method === 'POST' ? await readBody(req, context.maxUploadBytes) : Buffer.alloc(0);
  if (raw === undefined) {
    recordRequest(record, { method, path: `${url.pathname}${url.search}` });
    // aiohttp's answer, as ComfyUI v0.3.68 gave it.
    const reason = `Maximum request body size ${context.maxUploadBytes} exceeded.`;
    res.writeHead(413, {
      'content-type': 'text/plain; charset=utf-8',
      'content-length': String(Buffer.byteLength(reason)),
    });
    res.end(reason);
    return;
  }
  let body: unknown;
  if (method === 'POST' && JSON_ROUTES.includes(route)) {
    try {
      // ComfyUI's JSON routes call request.json() whatever the content type says; an empty
      // body fails too (json.loads('')).
      body = JSON.parse(raw.toString('utf8'));
    } catch {
      // Only /interrupt catches it (its body is optional: it then stops whatever runs); in the
      // other handlers it is uncaught and aiohttp answers 500.
      if (route !== '/interrupt') {
        recordRequest(record, { method, path: `${url.pathname}${url.search}` });
        return serverError(res);
      }
      body = {};
    }
  }
  recordRequest(record, {
    method,
    path: `${url.pathname}${url.search}`,
    ...(body !== undefined ? { body } : {}),
  });

  if (method === 'GET' && route === '/prompt') return json(res, 200, queue.info());
  if (method === 'POST' && route === '/prompt') return queuePrompt(context, res, body);
  if (method === 'GET' && route === '/queue') return json(res, 200, queue.items());
  if (method === 'POST' && route === '/queue') {
    if (isRecord(body)) {
      if (body.clear === true) queue.clear();
      if (Array.isArray(body.delete)) queue.delete(body.delete);
    }
    return empty(res);
  }
  if (method === 'POST' && route === '/interrupt') {
    // server.py calls json_data.get(...): a JSON body that is not an object fails (500); an
    // empty prompt_id is no prompt_id.
    if (!isRecord(body)) return serverError(res);
    queue.interrupt(
      typeof body.prompt_id === 'string' && body.prompt_id !== '' ? body.prompt_id : undefined,
    );
    return empty(res);
  }
  if (method === 'GET' && route === '/history') {
    const max = Number(url.searchParams.get('max_items') ?? Number.NaN);
    const all = [...queue.history.entries()];
    return json(res, 200, Object.fromEntries(Number.isFinite(max) ? all.slice(-max) : all));
  }
  if (method === 'GET' && route.startsWith('/history/')) {
    const id = decodeURIComponent(route.slice('/history/'.length));
    const entry = queue.history.get(id);
    return json(res, 200, entry ? { [id]: entry } : {});
  }
  if (method === 'POST' && route === '/history') {
    if (isRecord(body)) {
      if (body.clear === true) queue.history.clear();
      if (Array.isArray(body.delete)) {
        for (const id of body.delete) queue.history.delete(String(id));
      }
    }
    return empty(res);
  }
  if (method === 'GET' && route === '/view') return view(res, url, folders, context.slowView);
  if (method === 'POST' && route === '/upload/image') {
    return uploadImage(req, res, raw, folders, record.uploads);
  }
  if (method === 'GET' && route === '/system_stats') return json(res, 200, systemStats());
  if (method === 'GET' && (route === '/object_info' || route.startsWith('/object_info/'))) {
    const only = route.startsWith('/object_info/')
      ? decodeURIComponent(route.slice('/object_info/'.length))
      : undefined;
    return json(res, 200, objectInfo(context.installed(), only));
  }
  return empty(res, 404);
}

/** POST /prompt: validates the prompt and queues it, or refuses it with a 400. */
function queuePrompt(context: RouteContext, res: http.ServerResponse, body: unknown): void {
  const { queue, record } = context;
  // server.py takes the number before it looks at the prompt: refused prompts use one up too.
  const number =
    isRecord(body) && typeof body.number === 'number'
      ? body.number
      : queue.nextNumber(isRecord(body) && body.front === true);
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
    record.refused.push({ body, answer });
    return json(res, 400, answer);
  }
  const checked = validatePrompt(body.prompt, context.installed());
  if (!checked.ok) {
    if (checked.status === 500) return serverError(res);
    record.refused.push({ body, answer: checked.answer });
    return json(res, checked.status, checked.answer);
  }
  const promptId = typeof body.prompt_id === 'string' ? body.prompt_id : randomUUID();
  const extraData = isRecord(body.extra_data) ? { ...body.extra_data } : {};
  if (typeof body.client_id === 'string') extraData.client_id = body.client_id;
  const entry: QueueEntry = {
    number,
    promptId,
    prompt: checked.prompt,
    extraData,
    outputs: checked.outputs,
  };
  const received: ReceivedPrompt = {
    prompt_id: promptId,
    number,
    client_id: typeof body.client_id === 'string' ? body.client_id : undefined,
    prompt: structuredClone(entry.prompt),
  };
  record.prompts.push(received);
  queue.enqueue(entry);
  json(res, 200, { prompt_id: promptId, number, node_errors: checked.nodeErrors });
  record.events.emit('prompt', received);
  queue.broadcastStatus();
  queue.runSoon();
}

function systemStats() {
  return {
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
  };
}

/** Notes a request, and tells of it ('request') for tests waiting on it. */
function recordRequest(record: RouteContext['record'], request: StandInRequest): void {
  record.requests.push(request);
  record.events.emit('request', request);
}
