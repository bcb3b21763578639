// Downloading a selection of images as one ZIP (issue 13, feature 10): the shapes both sides
// use (the paths are API_ROUTES.zip*). The browser saves the ZIP itself (a plain download, so neither the tab nor the
// server holds it whole); the page follows the bytes sent through the progress query.
import { z } from 'zod';
import { fileNameSchema, isSafeFileName } from './file-name.js';
import type { SeriesFace } from './metadata.js';

/** At most this many images in one ZIP: a few hundred HD images are already many gigabytes. */
export const ZIP_MAX_FILES = 1000;

/** A download token as the server makes it (24 random bytes, base64url). */
export const ZIP_TOKEN_PATTERN = /^[A-Za-z0-9_-]{32}$/;

/**
 * The selected images of one gallery, by file name (the names the galleries key images by), or
 * material maps ('maps', issue 17) by their file names.
 */
export const zipDownloadRequestSchema = z.object({
  kind: z.enum(['ld', 'hd', 'maps']),
  files: z.array(fileNameSchema).min(1).max(ZIP_MAX_FILES),
});

/** The selection was accepted: the ZIP downloads once from zipFileUrl(token). */
export const zipDownloadTicketSchema = z.object({
  token: z.string().regex(ZIP_TOKEN_PATTERN),
  /** The name the browser saves the ZIP under. */
  filename: z.string(),
  /** How many images the ZIP holds. */
  files: z.number().int().positive(),
});

export const ZIP_DOWNLOAD_STATES = [
  /** Accepted; the browser has not asked for the ZIP yet. */
  'waiting',
  'sending',
  /** Every byte was handed to the connection. */
  'sent',
  /** Stopped: the download was cancelled or broke off, or a file went missing. */
  'failed',
] as const;

export const zipDownloadProgressSchema = z.object({
  state: z.enum(ZIP_DOWNLOAD_STATES),
  /** Bytes of the ZIP sent so far. */
  sent: z.number().int().nonnegative(),
  /** The ZIP's exact size, known once sending starts. */
  total: z.number().int().nonnegative().optional(),
  error: z.string().optional(),
});

/**
 * Issue 25, part 4: the name an image gets inside a ZIP. A face of a series goes into its
 * series' folder, named by face: the LD face `<series_id>-f1.png` is `<series_id>/face-01.png`,
 * its HD image `<series_id>-f1_60x120.png` is `<series_id>/face-01_60x120.png`; a face whose file
 * name is not its series' (a file indexed from elsewhere) keeps that name after the face,
 * `<series_id>/face-01-<name>`. Anything else, and a series id that is no safe name, keeps the
 * file name, as before series.
 */
export function zipEntryName(filename: string, series: SeriesFace | undefined): string {
  if (!series || !isSafeFileName(series.seriesId)) return filename;
  const face = `face-${String(series.face).padStart(2, '0')}`;
  const own = `${series.seriesId}-f${series.face}`;
  const rest = filename.slice(own.length);
  // `-f1` must not take `-f12_30x30.png` for its own.
  const tail = filename.startsWith(own) && !/^\d/.test(rest) ? rest : `-${filename}`;
  return `${series.seriesId}/${face}${tail}`;
}

/**
 * The entry names of a ZIP's images, in their order and no two alike: by face (zipEntryName),
 * or the plain file name where two would share a name by face (file names are unique, and a
 * name by face has a folder, so a file name never meets a name by face).
 */
export function zipEntryNames(
  images: readonly { filename: string; series: SeriesFace | undefined }[],
): string[] {
  const used = new Set<string>();
  return images.map(({ filename, series }) => {
    const byFace = zipEntryName(filename, series);
    const name = used.has(byFace) ? filename : byFace;
    used.add(name);
    return name;
  });
}

export type ZipDownloadRequest = z.infer<typeof zipDownloadRequestSchema>;
export type ZipDownloadTicket = z.infer<typeof zipDownloadTicketSchema>;
export type ZipDownloadState = (typeof ZIP_DOWNLOAD_STATES)[number];
export type ZipDownloadProgress = z.infer<typeof zipDownloadProgressSchema>;
