/**
 * How the print-files service (print-files.ts) names a print file, keys its order, finds its
 * print size and shows it: pure functions of the records.
 */
import {
  hdPrintSize,
  isHdSizeLabel,
  PRINT_FILE_EXTENSION,
  printPixelSize,
  type PrintFile,
  type PrintSettings,
} from '@tessera/contract';
import type { PhysicalSize } from '../imaging/physical-size.js';
import type { JobRecord } from '../jobs/job.js';
import type { ImageRecord } from '../store/images.js';
import type { PrintFileRecord } from '../store/print-files.js';
import { stem } from './generation.js';

/** A short, file-name-safe form of a profile's id: 'srgb', 'coated-fogra39'. */
function profileSlug(profile: string): string {
  const slug = profile
    .replace(/\.ic[cm]$/i, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40);
  return slug || 'profile';
}

/**
 * The print file's name, one per HD image and settings (so a rerun after a crash writes the same
 * name again): tile-1a2b3c_120x240_360dpi_3mm_coated-fogra39_8bit_lzw.tif.
 */
export function printFileName(image: string, settings: PrintSettings): string {
  const { dpi, bleedMm, bitDepth, compression, profile } = settings;
  return (
    `${stem(image)}_${dpi}dpi_${bleedMm}mm_${profileSlug(profile)}_${bitDepth}bit_${compression}` +
    `.${PRINT_FILE_EXTENSION}`
  );
}

/** What the keys of an HD image's print orders start with. */
export function printKeyPrefix(image: string): string {
  return `print:${image}:`;
}

/** The key a live order holds: the same image with the same settings is made once at a time. */
export function dedupeKey(image: string, settings: PrintSettings): string {
  const { dpi, bleedMm, compression, bitDepth, profile } = settings;
  return `${printKeyPrefix(image)}${dpi}:${bleedMm}:${compression}:${bitDepth}:${profile}`;
}

/** The centimetres an HD image prints at: its ordered size (the HD service records the label). */
export function printSizeOf(image: ImageRecord): PhysicalSize | undefined {
  const label = image.metadata['size'];
  if (!isHdSizeLabel(label)) return undefined;
  const { widthCm, heightCm } = hdPrintSize(label, image.width, image.height);
  return { widthCm, heightCm };
}

export const settingsOf = ({ dpi, bleedMm, compression, bitDepth, profile }: PrintSettings) => ({
  dpi,
  bleedMm,
  compression,
  bitDepth,
  profile,
});

export function fileView(file: PrintFileRecord, image: string): PrintFile {
  return {
    id: file.jobId,
    image,
    settings: file.settings,
    status: 'finished',
    percent: 100,
    filename: file.filename,
    bytes: file.bytes,
    width: file.width,
    height: file.height,
    createdAt: file.createdAt,
  };
}

export function jobView(job: JobRecord<'print'>, print: PhysicalSize): PrintFile {
  const { settings, image } = job.params;
  const { width, height } = printPixelSize(print, settings.dpi, settings.bleedMm);
  return {
    id: job.publicId,
    image,
    settings,
    status: job.status,
    percent: job.status === 'finished' ? 100 : Math.round(job.percent),
    ...(job.error && job.status !== 'finished' ? { error: job.error } : {}),
    width,
    height,
    createdAt: job.createdAt,
  };
}
