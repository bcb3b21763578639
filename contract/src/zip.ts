// Downloading a selection of images as one ZIP (issue 13, feature 10): the shapes and the paths
// both sides use. The browser saves the ZIP itself (a plain download, so neither the tab nor the
// server holds it whole); the page follows the bytes sent through the progress query.
import { z } from 'zod';
import { fileNameSchema } from './file-name.js';

/** At most this many images in one ZIP: a few hundred HD images are already many gigabytes. */
export const ZIP_MAX_FILES = 1000;

/** A download token as the server makes it (24 random bytes, base64url). */
export const ZIP_TOKEN_PATTERN = /^[A-Za-z0-9_-]{32}$/;

/** The routes, as the server registers them; `withToken` fills in a token for the app. */
export const ZIP_ROUTES = {
  /** POST zipDownloadRequestSchema → zipDownloadTicketSchema: checks the selection, once. */
  create: '/api/command/zip-download',
  /** GET: the ZIP itself, once, as an attachment with its exact Content-Length. */
  file: '/api/images/zip/:token',
  /** GET → zipDownloadProgressSchema: how far the server has sent the ZIP. */
  progress: '/api/query/zip-download/:token',
} as const;

export function withToken(route: string, token: string): string {
  return route.replace(':token', encodeURIComponent(token));
}

/** The selected images of one gallery, by file name (the names the galleries key images by). */
export const zipDownloadRequestSchema = z.object({
  kind: z.enum(['ld', 'hd']),
  files: z.array(fileNameSchema).min(1).max(ZIP_MAX_FILES),
});

/** The selection was accepted: the ZIP downloads once from ZIP_ROUTES.file(token). */
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

export type ZipDownloadRequest = z.infer<typeof zipDownloadRequestSchema>;
export type ZipDownloadTicket = z.infer<typeof zipDownloadTicketSchema>;
export type ZipDownloadState = (typeof ZIP_DOWNLOAD_STATES)[number];
export type ZipDownloadProgress = z.infer<typeof zipDownloadProgressSchema>;
