import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import fastifyMultipart from '@fastify/multipart';
import {
  previewRequestSchema,
  QUEUE_LIMIT_TEXTS,
  TEXTS,
  UPLOAD_MAX_BYTES,
  validateUploadFile,
  type PreviewRequest,
} from '@tessera/contract';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { validateStoredUpload } from '../../imaging/decode.js';
import type { EnqueueOutcome, GenerationStatus } from '../../services/generation.js';
import type { Owner } from '../../services/images.js';

/** What the HTTP side needs of generation (GenerationService). */
export interface GenerationApi {
  /** 'duplicate' when a job with this id is already queued or running. */
  enqueuePreview(
    owner: Owner,
    request: PreviewRequest,
    upload: { path: string; format: string },
  ): Promise<EnqueueOutcome>;
  latestStatus(owner: Owner, kind: 'preview' | 'hd'): Promise<GenerationStatus | undefined>;
}

export const GENERATION_TEXTS = {
  noImage: 'No image was uploaded',
  userMismatch: "The form's user is not the signed-in user",
  duplicateId: 'A job with this id is already queued or running',
  noJob: 'No generation yet',
  malformedForm: 'The form could not be read: it is not a complete multipart/form-data body',
} as const;

interface Upload {
  fields: Record<string, string>;
  file?: { path: string; bytes: number; name: string };
}

/** SPEC §7: post a preview job (multipart) and read the latest preview and HD status. */
export const generationRoutes: FastifyPluginAsync<{
  generation: GenerationApi;
  scratchDir: string;
}> = async (app, { generation, scratchDir }) => {
  await app.register(fastifyMultipart, {
    // The size limit stops the upload while it streams, before it is all read.
    limits: { fileSize: UPLOAD_MAX_BYTES, files: 1, fields: 40, fieldSize: 16 * 1024, parts: 41 },
  });

  app.post(
    '/api/command/generate-image/preview',
    { preHandler: app.requireUser },
    async (request, reply) => {
      const user = request.user;
      if (!user) return reply.status(401).send({ error: 'Not signed in' });
      let upload: Upload;
      try {
        upload = await receive(request, scratchDir);
      } catch (err) {
        if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
          return reply.status(413).send({ error: TEXTS.uploadTooLarge });
        }
        if (isMalformedForm(err)) {
          request.log.info({ reason: (err as Error).message }, 'malformed multipart refused');
          return reply.status(400).send({ error: GENERATION_TEXTS.malformedForm });
        }
        throw err;
      }
      try {
        const fields = previewRequestSchema.safeParse(upload.fields);
        if (!fields.success) {
          return reply
            .status(400)
            .send({ error: fields.error.issues.map((i) => i.message).join('; ') });
        }
        if (fields.data.user !== user.username)
          return reply.status(403).send({ error: GENERATION_TEXTS.userMismatch });
        if (!upload.file) return reply.status(400).send({ error: GENERATION_TEXTS.noImage });
        // SPEC §5 in the browser's order: the name's extension and size, then the content.
        const refusal = validateUploadFile({ name: upload.file.name, size: upload.file.bytes });
        if (refusal)
          return reply
            .status(refusal === TEXTS.uploadTooLarge ? 413 : 400)
            .send({ error: refusal });
        const checked = await validateStoredUpload(upload.file.path, upload.file.bytes);
        if (!checked.ok)
          return reply
            .status(checked.message === TEXTS.uploadTooLarge ? 413 : 400)
            .send({ error: checked.message });

        const owner = { id: user.userId, username: user.username };
        const outcome = await generation.enqueuePreview(owner, fields.data, {
          path: upload.file.path,
          format: checked.format,
        });
        if (outcome.status === 'duplicate')
          return reply.status(409).send({ error: GENERATION_TEXTS.duplicateId });
        if (outcome.status === 'queue-full')
          return reply.status(429).send({ error: QUEUE_LIMIT_TEXTS.previews(outcome.limit) });
        return reply.status(202).send({ id: fields.data.id, status: 'queued' });
      } finally {
        if (upload.file) await fsp.rm(upload.file.path, { force: true });
      }
    },
  );

  for (const [url, kind] of [
    ['/api/query/status-generate-image/preview', 'preview'],
    ['/api/query/status-generate-image', 'hd'],
  ] as const) {
    app.get(url, { preHandler: app.requireUser }, async (request, reply) => {
      const user = request.user;
      if (!user) return reply.status(401).send({ error: 'Not signed in' });
      const status = await generation.latestStatus(
        { id: user.userId, username: user.username },
        kind,
      );
      // The browser polls this: never a cached answer.
      reply.header('cache-control', 'no-store');
      return status ?? reply.status(404).send({ error: GENERATION_TEXTS.noJob });
    });
  }
};

/** Reads the multipart form: text fields into memory, the one file part streamed to a scratch file. */
async function receive(request: FastifyRequest, scratchDir: string): Promise<Upload> {
  const upload: Upload = { fields: {} };
  await fsp.mkdir(scratchDir, { recursive: true });
  try {
    for await (const part of request.parts()) {
      if (part.type === 'field') {
        if (typeof part.value === 'string') upload.fields[part.fieldname] = part.value;
        continue;
      }
      if (part.fieldname !== 'image' || upload.file) {
        part.file.resume();
        continue;
      }
      const target = path.join(scratchDir, `upload-${randomBytes(8).toString('hex')}`);
      upload.file = { path: target, bytes: 0, name: part.filename };
      await pipeline(part.file, fs.createWriteStream(target));
      upload.file.bytes = (await fsp.stat(target)).size;
    }
  } catch (err) {
    if (upload.file) await fsp.rm(upload.file.path, { force: true });
    throw err;
  }
  return upload;
}

/**
 * A body the multipart parser could not read (no boundary, cut short, broken headers) is the
 * client's fault; only a failure of the server's own disk (a system error) is the server's.
 */
function isMalformedForm(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  if ('syscall' in err) return false;
  const status = (err as { statusCode?: number }).statusCode;
  return status === undefined || (status >= 400 && status < 500);
}
