import fastifyMultipart from '@fastify/multipart';
import {
  API_ROUTES,
  errorText,
  previewRequestSchema,
  type PreviewRequest,
} from '@tessera/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { FileStore, ScratchFile } from '../../files/file-store.js';
import type { EnqueueOutcome, GenerationStatus } from '../../services/generation.js';
import type { Owner } from '../../owner.js';
import { ownerOf } from '../session.js';
import { checkUploadedImage, receiveUpload, UPLOAD_FORM_LIMITS } from '../multipart-upload.js';

/** What the HTTP side needs of generation (GenerationService). */
export interface GenerationApi {
  /** 'duplicate' when a job with this id is already queued or running. */
  enqueuePreview(
    owner: Owner,
    request: PreviewRequest,
    upload: { file: ScratchFile; format: string; sha256: string; bytes: number },
  ): Promise<EnqueueOutcome>;
  latestStatus(owner: Owner, kind: 'preview' | 'hd'): Promise<GenerationStatus | undefined>;
}

/** SPEC §7: post a preview job (multipart) and read the latest preview and HD status. */
export const generationRoutes: FastifyPluginAsync<{
  generation: GenerationApi;
  /** Where uploads stream to (a scratch folder) while they are checked. */
  files: FileStore;
}> = async (app, { generation, files }) => {
  await app.register(fastifyMultipart, {
    // The size limit stops the upload while it streams, before it is all read.
    limits: UPLOAD_FORM_LIMITS,
  });

  app.post(
    // The multipart form of SPEC §7: the reference image and the form's fields.
    API_ROUTES.generatePreview,
    { preHandler: app.requireUser },
    async (request, reply) => {
      const owner = ownerOf(request);
      const received = await receiveUpload(request, files);
      if (!received.ok) {
        return reply.status(received.refusal.status).send({ error: received.refusal.error });
      }
      const { upload } = received;
      try {
        const fields = previewRequestSchema.safeParse(upload.fields);
        if (!fields.success) {
          return reply
            .status(400)
            .send({ error: fields.error.issues.map((i) => i.message).join('; ') });
        }
        if (fields.data.user !== owner.username)
          return reply.status(403).send({ error: errorText('FORM_USER_MISMATCH') });
        const checked = await checkUploadedImage(upload.file);
        if (!checked.ok) {
          return reply.status(checked.refusal.status).send({ error: checked.refusal.error });
        }

        const outcome = await generation.enqueuePreview(owner, fields.data, {
          file: checked.file.scratchFile,
          format: checked.header.format,
          sha256: checked.file.sha256,
          bytes: checked.file.bytes,
        });
        if (outcome.status === 'duplicate')
          return reply.status(409).send({ error: errorText('JOB_ID_TAKEN') });
        if (outcome.status === 'over-quota')
          return reply.status(413).send({ error: outcome.error });
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
