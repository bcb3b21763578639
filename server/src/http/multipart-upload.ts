import { createHash, type Hash } from 'node:crypto';
import { errorText, TEXTS, UPLOAD_MAX_BYTES, validateUploadFile } from '@tessera/contract';
import type { FastifyRequest } from 'fastify';
import type { FileStore, Scratch, ScratchFile } from '../files/file-store.js';
import { validateStoredUpload, type ImageHeader } from '../imaging/image-header.js';
import { diskFullPoint } from '../runtime/faults.js';

// A reference image posted as multipart/form-data (the preview job of SPEC §7, and the reference
// checks of issue 27, part 5): the file part `image` streamed to a scratch file, text fields kept.

/** @fastify/multipart's limits: the size limit stops the upload while it streams. */
export const UPLOAD_FORM_LIMITS = {
  fileSize: UPLOAD_MAX_BYTES,
  files: 1,
  fields: 40,
  fieldSize: 16 * 1024,
  parts: 41,
};

export interface Upload {
  fields: Record<string, string>;
  /** The uploaded file is streamed to a scratch file, so big uploads never sit in memory. */
  scratch: Scratch;
  file?: { scratchFile: ScratchFile; bytes: number; name: string; sha256: string };
}

/** An upload refused: the status and the contract's text the route answers with. */
export interface UploadRefusal {
  status: number;
  error: string;
}

/**
 * The form read (receive), or the refusal of a form the client got wrong: too large while it
 * streamed (413), not readable multipart (400). A failure of the server's own is thrown.
 */
export async function receiveUpload(
  request: FastifyRequest,
  files: FileStore,
): Promise<{ ok: true; upload: Upload } | { ok: false; refusal: UploadRefusal }> {
  try {
    return { ok: true, upload: await receive(request, files) };
  } catch (err) {
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
      return { ok: false, refusal: { status: 413, error: errorText('UPLOAD_TOO_LARGE') } };
    }
    if (isMalformedForm(err)) {
      request.log.info({ reason: (err as Error).message }, 'malformed multipart refused');
      return { ok: false, refusal: { status: 400, error: errorText('FORM_MALFORMED') } };
    }
    throw err;
  }
}

/**
 * SPEC §5 on the received file, in the browser's order: there is one, its name's extension and
 * its size, then its content (format, readable size, pixels). Too large is 413, the rest 400.
 */
export async function checkUploadedImage(
  file: Upload['file'],
): Promise<
  | { ok: true; file: NonNullable<Upload['file']>; header: ImageHeader }
  | { ok: false; refusal: UploadRefusal }
> {
  if (!file) return { ok: false, refusal: { status: 400, error: errorText('UPLOAD_MISSING') } };
  const refuse = (error: string) => ({
    ok: false as const,
    refusal: { status: error === TEXTS.uploadTooLarge ? 413 : 400, error },
  });
  const refusal = validateUploadFile({ name: file.name, size: file.bytes });
  if (refusal) return refuse(refusal);
  const checked = await validateStoredUpload(file.scratchFile.path, file.bytes);
  if (!checked.ok) return refuse(checked.message);
  return { ok: true, file, header: checked };
}

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
