import fastifyMultipart from '@fastify/multipart';
import { API_ROUTES, errorText, type ReferenceAnalysis } from '@tessera/contract';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { FileStore } from '../../files/file-store.js';
import {
  ReferenceChecksBusyError,
  type ReferenceAnalysisService,
} from '../../services/reference-analysis.js';
import {
  checkUploadedImage,
  receiveUpload,
  UPLOAD_FORM_LIMITS,
  type UploadRefusal,
} from '../multipart-upload.js';
import { ownerOf } from '../session.js';

/** What the routes need of the reference checks. */
export type ReferenceAnalysisApi = Pick<ReferenceAnalysisService, 'analyse' | 'removeLighting'>;

/**
 * Issue 27, part 5: a reference checked as it is chosen (its warnings and figures), and its
 * lighting removed for the preparation step (a PNG). Both take the preview's multipart `image`
 * under the same limits and checks (SPEC §5), store nothing, and answer a refusal with the
 * contract's text; what went wrong inside goes to the log (the app's error handler).
 */
export const referenceAnalysisRoutes: FastifyPluginAsync<{
  references: ReferenceAnalysisApi;
  /** Where uploads stream to (a scratch folder) while they are checked. */
  files: FileStore;
}> = async (app, { references, files }) => {
  await app.register(fastifyMultipart, { limits: UPLOAD_FORM_LIMITS });

  app.post(
    API_ROUTES.referenceAnalysis,
    { preHandler: app.requireUser },
    async (request, reply) => {
      const analysis = await withReference(request, reply, files, (path, signal) =>
        references.analyse(ownerOf(request), path, signal),
      );
      if (!analysis.ok) return analysis.reply;
      const value: ReferenceAnalysis = analysis.value;
      return reply.header('cache-control', 'no-store').send(value);
    },
  );

  app.post(API_ROUTES.referenceDelight, { preHandler: app.requireUser }, async (request, reply) => {
    const png = await withReference(request, reply, files, (path, signal) =>
      references.removeLighting(ownerOf(request), path, signal),
    );
    if (!png.ok) return png.reply;
    const { buffer, byteOffset, byteLength } = png.value;
    return reply
      .header('cache-control', 'no-store')
      .type('image/png')
      .send(Buffer.from(buffer, byteOffset, byteLength));
  });
};

/**
 * Receives and checks the uploaded reference and runs `use` on its scratch file (aborted if the
 * browser goes away first); the file is removed before the answer goes, a refusal's too. A
 * refusal (or a browser gone) is answered here: `reply` is then what the route returns.
 */
async function withReference<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  files: FileStore,
  use: (path: string, signal: AbortSignal) => Promise<T>,
): Promise<{ ok: true; value: T } | { ok: false; reply: FastifyReply }> {
  const received = await receiveUpload(request, files);
  if (!received.ok) return refused(reply, received.refusal);
  const { upload } = received;
  // The browser may leave while the worker runs (a new reference chosen): stop it then.
  const left = new AbortController();
  reply.raw.once('close', () => left.abort());
  let outcome: { ok: true; value: T } | { ok: false; refusal?: UploadRefusal };
  try {
    const checked = await checkUploadedImage(upload.file);
    outcome = checked.ok
      ? { ok: true, value: await use(checked.file.scratchFile.path, left.signal) }
      : checked;
  } catch (err) {
    if (left.signal.aborted) outcome = { ok: false };
    else if (err instanceof ReferenceChecksBusyError) {
      outcome = { ok: false, refusal: { status: 429, error: errorText('REFERENCE_CHECKS_BUSY') } };
    } else throw err;
  } finally {
    await upload.scratch.dispose();
  }
  if (outcome.ok) return outcome;
  if (outcome.refusal) return refused(reply, outcome.refusal);
  // Nobody is there to answer: the response is dropped as the connection was.
  reply.hijack();
  reply.raw.destroy();
  return { ok: false, reply };
}

function refused(reply: FastifyReply, refusal: UploadRefusal) {
  return { ok: false as const, reply: reply.status(refusal.status).send({ error: refusal.error }) };
}
