import { validateUploadFile, validateUploadPixels } from '@tessera/contract';
import { currentLocale } from '../../lib/i18n';
import { readImageSize } from './image-size';

export type ReferenceCheck =
  { ok: true; width: number; height: number } | { ok: false; message: string };

/**
 * SPEC §5's upload rules, the contract's own (checklist U1–U4): extension and byte size first,
 * then the pixel size, which needs the image read.
 */
export async function checkReference(file: File): Promise<ReferenceCheck> {
  const locale = currentLocale();
  const fileError = validateUploadFile(file, locale);
  if (fileError) return { ok: false, message: fileError };
  const size = await readImageSize(file);
  // No size read is NaN x NaN, which the contract answers with its "unreadable" text.
  const width = size?.width ?? Number.NaN;
  const height = size?.height ?? Number.NaN;
  const pixelError = validateUploadPixels(width, height, locale);
  if (pixelError) return { ok: false, message: pixelError };
  return { ok: true, width, height };
}
