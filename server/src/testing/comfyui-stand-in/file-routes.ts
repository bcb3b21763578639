/** GET /view and POST /upload/image (server.py): images in and out of the stand-in's folders. */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import type http from 'node:http';
import path from 'node:path';
import { inside, type Folders } from './folders.js';
import { empty, json, serverError } from './respond.js';
import type { ComfyStandIn, ComfyStandInOptions } from './types.js';

/** GET /view?filename=...&subfolder=...&type=...: streams the file (slowly, if asked). */
export function view(
  res: http.ServerResponse,
  url: URL,
  folders: Folders,
  slow?: ComfyStandInOptions['slowView'],
): void {
  const filename = url.searchParams.get('filename');
  if (!filename) return empty(res, 404);
  if (filename.startsWith('/') || filename.includes('..')) return empty(res, 400);
  const type = url.searchParams.get('type') ?? 'output';
  const dir =
    type === 'input'
      ? folders.input
      : type === 'temp'
        ? folders.temp
        : type === 'output'
          ? folders.output
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
  if (!slow) {
    fs.createReadStream(file).pipe(res);
    return;
  }
  const data = fs.readFileSync(file);
  const end = Math.min(data.length, slow.stallAfterBytes ?? data.length);
  const send = (from: number) => {
    if (res.destroyed) return;
    if (from >= end) {
      // A stall leaves the response open; else it ends.
      if (end === data.length) res.end();
      return;
    }
    res.write(data.subarray(from, Math.min(end, from + slow.chunkBytes)));
    setTimeout(() => send(from + slow.chunkBytes), slow.pauseMs);
  };
  send(0);
}

/**
 * POST /upload/image (multipart: image, type, subfolder, overwrite): stores the file, under a
 * new name "name (1).png" when another file has its name, and records it in `uploads`.
 */
export async function uploadImage(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  raw: Buffer,
  folders: Folders,
  uploads: ComfyStandIn['uploads'],
): Promise<void> {
  let form: FormData;
  try {
    form = await new Response(new Uint8Array(raw), {
      headers: { 'content-type': req.headers['content-type'] ?? '' },
    }).formData();
  } catch {
    return empty(res, 400);
  }
  const image = form.get('image');
  if (image === null) return empty(res, 400);
  // A part without a file name is a plain field to aiohttp (bytes), and server.py's
  // `image.file` then raises: aiohttp answers 500.
  if (!(image instanceof File) || !image.name) return serverError(res);
  const type = String(form.get('type') ?? 'input');
  const dir =
    type === 'temp'
      ? folders.temp
      : type === 'output'
        ? folders.output
        : type === 'input'
          ? folders.input
          : undefined;
  // server.py's get_dir_by_type leaves its folder unset for another type: aiohttp answers 500.
  if (!dir) return serverError(res);
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
  uploads.push({ name: filename, subfolder, type, bytes: data.length });
  return json(res, 200, { name: filename, subfolder, type });
}
