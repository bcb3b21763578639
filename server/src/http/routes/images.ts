import { createHash } from 'node:crypto';
import { API_ROUTES, errorText, fileExtension, isSafeFileName } from '@tessera/contract';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { ByteRange, FileArea, FileStore, StoredFile } from '../../files/file-store.js';
import { sniffImageFormat, type ImageFormat } from '../../imaging/image-header.js';
import {
  HD_TYPES_BY_EXTENSION,
  HD_TYPES_BY_FORMAT,
  PRINT_TYPES_BY_EXTENSION,
} from '../../imaging/hd-encodings.js';
import { thumbnailName } from '../../services/images.js';
import { dispositionFileName } from '../content-disposition.js';
import { ownerOf } from '../session.js';

/**
 * The answer depends on the session cookie, so only the browser may keep it; and a name is not
 * promised to hold the same bytes forever (an image deleted and made again may reuse it), so it
 * is kept briefly and then revalidated with its ETag (a 304 costs no body).
 */
export const IMAGE_CACHE_CONTROL = 'private, max-age=60';

/** The HD formats' types come from their table (imaging/hd-encodings.ts); the uploads' others here. */
const CONTENT_TYPES: Record<ImageFormat, string> = {
  ...HD_TYPES_BY_FORMAT,
  gif: 'image/gif',
  webp: 'image/webp',
  bmp: 'image/bmp',
};
const EXTENSION_TYPES: Record<string, string> = {
  ...HD_TYPES_BY_EXTENSION,
  ...PRINT_TYPES_BY_EXTENSION,
  gif: 'image/gif',
  webp: 'image/webp',
  bmp: 'image/bmp',
};
/** Enough of a file to know its image format. */
const SNIFF_BYTES = 32;

interface ImageRoute {
  url: string;
  area: FileArea;
  /** Thumbnails are stored as `<image name>.webp` and always are WebP. */
  thumbnail: boolean;
}

const ROUTES: readonly ImageRoute[] = [
  { url: API_ROUTES.ldImage, area: 'ld', thumbnail: false },
  { url: API_ROUTES.ldThumbnail, area: 'ld-thumbnails', thumbnail: true },
  { url: API_ROUTES.hdImage, area: 'hd', thumbnail: false },
  { url: API_ROUTES.hdThumbnail, area: 'hd-thumbnails', thumbnail: true },
  { url: API_ROUTES.inputImage, area: 'input', thumbnail: false },
  // Material maps (issue 17, part 5).
  { url: API_ROUTES.mapImage, area: 'maps', thumbnail: false },
  // Print files of HD images (issue 26, part 1): TIFF, large; ranges let a download resume.
  { url: API_ROUTES.printFile, area: 'print', thumbnail: false },
];

/**
 * SPEC §7, DESIGN §4: a user's image files, to that user only. The file is looked up in the
 * signed-in user's own areas, so someone else's file is simply not found (404, never 403: whether
 * it exists is not told). Conditional requests (ETag) and byte ranges are answered.
 */
export const imageRoutes: FastifyPluginAsync<{ files: FileStore }> = async (app, { files }) => {
  for (const { url, area, thumbnail } of ROUTES) {
    app.get<{ Params: { filename: string } }>(
      url,
      { preHandler: app.requireUser },
      async (request, reply) => {
        const owner = ownerOf(request).username;
        const { filename } = request.params;
        // A name, never a path: separators, controls, leading dots and '..' are refused here.
        if (!isSafeFileName(filename)) return notFound(reply);
        const name = thumbnail ? thumbnailName(filename) : filename;
        if (!isSafeFileName(name)) return notFound(reply);
        return serveFile(request, reply, files, { owner, area, name, thumbnail });
      },
    );
  }
};

async function serveFile(
  request: FastifyRequest,
  reply: FastifyReply,
  files: FileStore,
  file: { owner: string; area: FileArea; name: string; thumbnail: boolean },
) {
  const { owner, area, name } = file;
  const stat = await files.stat(owner, area, name);
  if (!stat) return notFound(reply);

  const etag = entityTag(owner, area, stat);
  reply
    .header('etag', etag)
    .header('cache-control', IMAGE_CACHE_CONTROL)
    .header('vary', 'Cookie')
    .header('accept-ranges', 'bytes');
  if (matchesEntityTag(request.headers['if-none-match'], etag)) {
    return reply.status(304).send();
  }

  // A Range is honoured only for the representation the client already has part of (If-Range).
  const ifRange = request.headers['if-range'];
  const range =
    ifRange === undefined || ifRange === etag
      ? parseRange(request.headers.range, stat.bytes)
      : undefined;
  if (range === 'unsatisfiable') {
    return reply.status(416).header('content-range', `bytes */${stat.bytes}`).send();
  }

  let type: string;
  try {
    type = file.thumbnail ? 'image/webp' : await contentType(files, owner, area, name);
  } catch (err) {
    // Removed between stat and read.
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return notFound(reply);
    throw err;
  }
  reply.type(type);
  if (file.area === 'hd' || file.area === 'maps' || file.area === 'print') {
    // An HD image, a map or a print file is a deliverable: it downloads as a file named for
    // what it is.
    reply.header('content-disposition', `attachment; ${dispositionFileName(name)}`);
  }
  if (range) {
    return reply
      .status(206)
      .header('content-range', `bytes ${range.start}-${range.end}/${stat.bytes}`)
      .header('content-length', range.end - range.start + 1)
      .send(files.read(owner, area, name, range));
  }
  return reply.header('content-length', stat.bytes).send(files.read(owner, area, name));
}

function notFound(reply: FastifyReply) {
  return reply.status(404).send({ error: errorText('NOT_FOUND') });
}

/**
 * A strong validator of this user's file as it is now: a file written again gets a new mtime and
 * so a new tag. The owner and name are part of it, so two users' files never share a tag.
 */
function entityTag(owner: string, area: FileArea, stat: StoredFile): string {
  const hash = createHash('sha256')
    .update([owner, area, stat.name, stat.bytes, stat.modifiedAt.getTime()].join('\0'))
    .digest('base64url');
  return `"${hash.slice(0, 27)}"`;
}

/** If-None-Match: `*` or a list of tags, compared weakly (RFC 9110 §13.1.2). */
export function matchesEntityTag(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

/**
 * One byte range of a `Range: bytes=...` header, clamped to the file (RFC 9110 §14): undefined
 * when there is none to honour (absent, not bytes, malformed, or several ranges, which a server
 * may answer in full), 'unsatisfiable' when it starts past the end.
 */
export function parseRange(
  header: string | undefined,
  size: number,
): ByteRange | 'unsatisfiable' | undefined {
  const match = header && /^bytes=[ \t]*(\d*)-(\d*)[ \t]*$/.exec(header);
  if (!match) return undefined;
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return undefined;
  const start = Number(first);
  const end = Number(last);
  if (first === '') {
    // A suffix: the last `end` bytes.
    if (end === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - end), end: size - 1 };
  }
  if (last !== '' && end < start) return undefined;
  if (start >= size) return 'unsatisfiable';
  return { start, end: last === '' ? size - 1 : Math.min(end, size - 1) };
}

/** The image type by the file's first bytes, else by its name; never anything a browser runs. */
async function contentType(
  files: FileStore,
  owner: string,
  area: FileArea,
  name: string,
): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of files.read(owner, area, name, { start: 0, end: SNIFF_BYTES - 1 })) {
    chunks.push(chunk as Buffer);
  }
  const format = sniffImageFormat(Buffer.concat(chunks));
  if (format) return CONTENT_TYPES[format];
  return EXTENSION_TYPES[fileExtension(name)] ?? 'application/octet-stream';
}
