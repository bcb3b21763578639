import {
  SERVER_ERRORS,
  serverError,
  type ServerError,
  type ServerErrorCode,
} from '@tessera/contract';

/**
 * The one place an unexpected error becomes a text a person may read (issue 22, part 5): a full
 * disk, an image that cannot be decoded, a file not found, or else a general text. Paths, library
 * texts and stacks never reach a user; the caller logs the error itself.
 */
export function readableError(err: unknown, otherwise: ServerErrorCode = 'INTERNAL'): ServerError {
  const coded = contractCode(err);
  if (coded) return { code: coded, text: (err as Error).message };
  const system = (err as { code?: unknown } | undefined)?.code;
  const message = err instanceof Error ? err.message : String(err);
  if (system === 'ENOSPC' || system === 'EDQUOT' || DISK_FULL.test(message)) {
    return serverError('DISK_FULL');
  }
  if (system === 'ENOENT' || system === 'ENAMETOOLONG') return serverError('NOT_FOUND');
  if (UNDECODABLE.test(message)) return serverError('IMAGE_UNREADABLE');
  return serverError(otherwise);
}

/** The code of an error already written for people (ServiceError, PermanentJobError, …). */
function contractCode(err: unknown): ServerErrorCode | undefined {
  if (!(err instanceof Error)) return undefined;
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' && Object.hasOwn(SERVER_ERRORS, code)
    ? (code as ServerErrorCode)
    : undefined;
}

/**
 * A full disk as its text says it, for errors that lost their code on the way (a worker thread's
 * failure arrives as a message, libvips reports a failed write in its own words).
 */
const DISK_FULL = /\bENOSPC\b|\bEDQUOT\b|no space left on device|disk quota exceeded/i;

/**
 * libvips' and sharp's words for an image they could not decode: `pngload_buffer: libspng read
 * error`, `VipsJpeg: Premature end of JPEG file`, `Input buffer contains unsupported image
 * format`, `gifload: …`, `webpload: …`, a corrupt header.
 */
const UNDECODABLE =
  /\b(png|jpeg|jpg|gif|webp|tiff|heif|bmp)load(_buffer|_source)?\b|libspng|VipsJpeg|VipsPng|unsupported image format|corrupt header|premature end of|bad image|not a known file format|Input (file|buffer) (is|has|contains)/i;
