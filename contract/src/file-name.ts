// A file name sent by a client is a name, never a path (DESIGN §4).
import { z } from 'zod';

export const FILE_NAME_MAX_LENGTH = 255;
/** File systems count a name's bytes, not its characters: 255 bytes of UTF-8 at most. */
export const FILE_NAME_MAX_BYTES = 255;

// Separators, NUL and C0/C1 control characters: none belongs in a stored image's name.
// eslint-disable-next-line no-control-regex
const FORBIDDEN_FILE_NAME_CHARS = /[/\\\u0000-\u001f\u007f-\u009f]/;

export const fileNameSchema = z
  .string()
  .min(1)
  .max(FILE_NAME_MAX_LENGTH)
  // 255 characters of 'é' are 510 bytes: no file system stores such a name (ENAMETOOLONG).
  .refine((name) => new TextEncoder().encode(name).length <= FILE_NAME_MAX_BYTES, {
    message: `File name must be at most ${FILE_NAME_MAX_BYTES} bytes long`,
  })
  .refine((name) => !FORBIDDEN_FILE_NAME_CHARS.test(name), {
    message: 'File name must not contain path separators or control characters',
  })
  // A leading dot covers '.' and '..' and keeps hidden files out.
  .refine((name) => !name.startsWith('.'), { message: 'File name must not start with a dot' });

/** Whether a name is safe to join to a directory: no separators, controls or leading dot. */
export function isSafeFileName(name: string): boolean {
  return fileNameSchema.safeParse(name).success;
}
