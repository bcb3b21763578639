import type { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { dispositionFileName } from './content-disposition.js';

/** A ZIP made as it is sent: its name, its exact length (known ahead) and its bytes. */
export interface ZipAttachment {
  filename: string;
  total: number;
  stream: Readable;
}

/** Streams the ZIP as an attachment the browser saves itself; never kept by a cache. */
export function sendZipAttachment(reply: FastifyReply, zip: ZipAttachment): FastifyReply {
  return reply
    .header('cache-control', 'no-store')
    .header('content-disposition', `attachment; ${dispositionFileName(zip.filename)}`)
    .header('content-length', zip.total)
    .type('application/zip')
    .send(zip.stream);
}
