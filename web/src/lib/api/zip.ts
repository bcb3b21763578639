import {
  API_ROUTES,
  zipDownloadProgressSchema,
  zipDownloadTicketSchema,
  zipFileUrl,
  zipProgressUrl,
} from '@tessera/contract';
import type { ZipDownloadProgress, ZipDownloadRequest, ZipDownloadTicket } from '@tessera/contract';
import { expectAnswer, getJson, postJson } from './http';

/**
 * Checks the selection on the server and gets a one-time token for its ZIP. Rejects with an
 * HttpError carrying the server's text when it is refused (an image no longer there, say).
 */
export async function requestZipDownload(request: ZipDownloadRequest): Promise<ZipDownloadTicket> {
  return expectAnswer(await postJson(API_ROUTES.zipCreate, request), zipDownloadTicketSchema);
}

export function fetchZipProgress(token: string): Promise<ZipDownloadProgress> {
  return getJson(zipProgressUrl(token), zipDownloadProgressSchema);
}

/**
 * Has the browser download the ZIP itself, as a link with `download` does: it streams to disk
 * in the browser's download manager, so the page never holds the ZIP (an HD selection can be
 * gigabytes). The page follows the progress through fetchZipProgress.
 */
export function saveWithBrowser(ticket: ZipDownloadTicket): void {
  const link = document.createElement('a');
  link.href = zipFileUrl(ticket.token);
  link.download = ticket.filename;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
}
