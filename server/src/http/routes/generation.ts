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
import {
  checkUploadedImage,
  receiveUpload,
  UPLOAD_FORM_LIMITS,
  type Upload,
} from '../multipart-upload.js';

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
      // The scratch file is removed before the answer goes, so nothing is left once it has.
      let answer: Answer;
      try {
        answer = await acceptPreview(generation, owner, upload);
      } finally {
        await upload.scratch.dispose();
      }
      return reply.status(answer.status).send(answer.body);
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

interface Answer {
  status: number;
  body: unknown;
}

/** SPEC §7's checks of a posted preview job, in order, then the job queued: the answer to send. */
async function acceptPreview(
  generation: GenerationApi,
  owner: Owner,
  upload: Upload,
): Promise<Answer> {
  const refuse = (status: number, error: string) => ({ status, body: { error } });
  const fields = previewRequestSchema.safeParse(upload.fields);
  if (!fields.success) return refuse(400, fields.error.issues.map((i) => i.message).join('; '));
  if (fields.data.user !== owner.username) return refuse(403, errorText('FORM_USER_MISMATCH'));
  const checked = await checkUploadedImage(upload.file);
  if (!checked.ok) return refuse(checked.refusal.status, checked.refusal.error);
  const outcome = await generation.enqueuePreview(owner, fields.data, {
    file: checked.file.scratchFile,
    format: checked.header.format,
    sha256: checked.file.sha256,
    bytes: checked.file.bytes,
  });
  if (outcome.status === 'duplicate') return refuse(409, errorText('JOB_ID_TAKEN'));
  if (outcome.status === 'over-quota') return refuse(413, outcome.error);
  if (outcome.status === 'queue-full') {
    return refuse(429, errorText('PREVIEW_QUEUE_FULL', outcome.limit));
  }
  return { status: 202, body: { id: fields.data.id, status: 'queued' } };
}
