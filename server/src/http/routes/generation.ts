import { createHash, type Hash } from 'node:crypto';
import fastifyMultipart from '@fastify/multipart';
import {
  API_ROUTES,
  errorText,
  previewRequestSchema,
  TEXTS,
  UPLOAD_MAX_BYTES,
  validateUploadFile,
  type PreviewRequest,
} from '@tessera/contract';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { FileStore, Scratch, ScratchFile } from '../../files/file-store.js';
import { diskFullPoint } from '../../runtime/faults.js';
import { validateStoredUpload } from '../../imaging/image-header.js';
import type { EnqueueOutcome, GenerationStatus } from '../../services/generation.js';
import type { Owner } from '../../owner.js';
import { ownerOf } from '../session.js';

/** What the HTTP side needs of generation (GenerationService). */
export interface GenerationApi {
  /** 'duplicate' when a job with this id is already queued or running. */
  enqueuePreview(
    owner: Owner,
    request: PreviewRequest,
    upload: { file: ScratchFile; format: string; sha256: string },
  ): Promise<EnqueueOutcome>;
  latestStatus(owner: Owner, kind: 'preview' | 'hd'): Promise<GenerationStatus | undefined>;
}

interface Upload {
  fields: Record<string, string>;
  /** The uploaded file is streamed to a scratch file, so big uploads never sit in memory. */
  scratch: Scratch;
  file?: { scratchFile: ScratchFile; bytes: number; name: string; sha256: string };
}

/** SPEC §7: post a preview job (multipart) and read the latest preview and HD status. */
export const generationRoutes: FastifyPluginAsync<{
  generation: GenerationApi;
  /** Where uploads stream to (a scratch folder) while they are checked. */
  files: FileStore;
}> = async (app, { generation, files }) => {
  await app.register(fastifyMultipart, {
    // The size limit stops the upload while it streams, before it is all read.
    limits: { fileSize: UPLOAD_MAX_BYTES, files: 1, fields: 40, fieldSize: 16 * 1024, parts: 41 },
  });

  app.post(
    // The multipart form of SPEC §7: the reference image and the form's fields.
    API_ROUTES.generatePreview,
    { preHandler: app.requireUser },
    async (request, reply) => {
      const owner = ownerOf(request);
      let upload: Upload;
      try {
        upload = await receive(request, files);
      } catch (err) {
        if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
          return reply.status(413).send({ error: errorText('UPLOAD_TOO_LARGE') });
        }
        if (isMalformedForm(err)) {
          request.log.info({ reason: (err as Error).message }, 'malformed multipart refused');
          return reply.status(400).send({ error: errorText('FORM_MALFORMED') });
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
        if (fields.data.user !== owner.username)
          return reply.status(403).send({ error: errorText('FORM_USER_MISMATCH') });
        if (!upload.file) return reply.status(400).send({ error: errorText('UPLOAD_MISSING') });
        // SPEC §5 in the browser's order: the name's extension and size, then the content.
        const refusal = validateUploadFile({ name: upload.file.name, size: upload.file.bytes });
        if (refusal)
          return reply
            .status(refusal === TEXTS.uploadTooLarge ? 413 : 400)
            .send({ error: refusal });
        const checked = await validateStoredUpload(upload.file.scratchFile.path, upload.file.bytes);
        if (!checked.ok)
          return reply
            .status(checked.message === TEXTS.uploadTooLarge ? 413 : 400)
            .send({ error: checked.message });

        const outcome = await generation.enqueuePreview(owner, fields.data, {
          file: upload.file.scratchFile,
          format: checked.format,
          sha256: upload.file.sha256,
        });
        if (outcome.status === 'duplicate')
          return reply.status(409).send({ error: errorText('JOB_ID_TAKEN') });
        if (outcome.status === 'queue-full')
          return reply.status(429).send({ error: errorText('PREVIEW_QUEUE_FULL', outcome.limit) });
        return reply.status(202).send({ id: fields.data.id, status: 'queued' });
      } finally {
        await upload.scratch.dispose();
      }
    },
  );

  for (const [url, kind] of [
    [API_ROUTES.previewStatus, 'preview'],
    [API_ROUTES.hdStatus, 'hd'],
  ] as const) {
    app.get(url, { preHandler: app.requireUser }, async (request, reply) => {
      const status = await generation.latestStatus(ownerOf(request), kind);
      // The browser polls this: never a cached answer.
      reply.header('cache-control', 'no-store');
      return status ?? reply.status(404).send({ error: errorText('NO_GENERATION_YET') });
    });
  }
};

/** Reads the multipart form: text fields into memory, the one file part streamed to a scratch file. */
async function receive(request: FastifyRequest, files: FileStore): Promise<Upload> {
  const upload: Upload = { fields: {}, scratch: await files.openScratch() };
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
      const scratchFile = upload.scratch.newFile();
      upload.file = { scratchFile, bytes: 0, name: part.filename, sha256: '' };
      // Hashed as it streams: the same reference uploaded again is stored once (issue 22, part 13).
      const hash = createHash('sha256');
      diskFullPoint('upload:write', scratchFile.path);
      upload.file.bytes = await scratchFile.write(hashing(part.file, hash));
      upload.file.sha256 = hash.digest('hex');
    }
  } catch (err) {
    await upload.scratch.dispose();
    throw err;
  }
  return upload;
}

/** The bytes of `source` as they come, each also fed to `hash`. */
async function* hashing(source: AsyncIterable<Buffer>, hash: Hash): AsyncGenerator<Buffer> {
  for await (const chunk of source) {
    hash.update(chunk);
    yield chunk;
  }
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
