import type { ZipDownloadProgress } from '@tessera/contract';

/** What the page shows of one ZIP download. */
export type ZipDownloadView =
  | { phase: 'idle' }
  /** The server checks the selection, or waits for the browser to ask for the file. */
  | { phase: 'preparing'; files: number }
  | { phase: 'downloading'; files: number; sent: number; total: number | undefined }
  | { phase: 'done'; files: number; total: number }
  | { phase: 'failed'; error: string };

export const ZIP_TEXTS = {
  failed: 'ZIP download failed',
  lost: 'The server no longer knows this download',
} as const;

/** The view once the server told how far it got; `files` is the selection's size. */
export function viewOfProgress(files: number, progress: ZipDownloadProgress): ZipDownloadView {
  switch (progress.state) {
    case 'waiting':
      return { phase: 'preparing', files };
    case 'sending':
      return { phase: 'downloading', files, sent: progress.sent, total: progress.total };
    case 'sent':
      return { phase: 'done', files, total: progress.total ?? progress.sent };
    case 'failed':
      return { phase: 'failed', error: progress.error ?? ZIP_TEXTS.lost };
  }
}

/** Whole percent, never 100 before the end (the last bytes may still be on their way). */
export function percentOf(sent: number, total: number): number {
  if (total <= 0) return 0;
  return Math.min(99, Math.floor((sent / total) * 100));
}

/** 12.3 MB; below a megabyte, in kB. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024 * 1024) return `${Math.max(1, Math.round(bytes / 1024))} kB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

const images = (files: number) => (files === 1 ? '1 image' : `${files} images`);

/** The one line of text the status shows. */
export function zipStatusText(view: ZipDownloadView): string {
  switch (view.phase) {
    case 'idle':
      return '';
    case 'preparing':
      return `Preparing ZIP of ${images(view.files)}…`;
    case 'downloading':
      return view.total === undefined
        ? `Downloading… ${formatBytes(view.sent)}`
        : `Downloading… ${percentOf(view.sent, view.total)} % ` +
            `(${formatBytes(view.sent)} of ${formatBytes(view.total)})`;
    case 'done':
      // The server has sent the last byte; the browser's download list shows when it is saved.
      return `ZIP sent: ${images(view.files)}, ${formatBytes(view.total)}. Your browser saves it.`;
    case 'failed':
      return `${ZIP_TEXTS.failed}: ${view.error}`;
  }
}
