import type { ZipDownloadProgress, ZipTexts } from '@tessera/contract';

/** What the page shows of one ZIP download. */
export type ZipDownloadView =
  | { phase: 'idle' }
  /** The server checks the selection, or waits for the browser to ask for the file. */
  | { phase: 'preparing'; files: number }
  | { phase: 'downloading'; files: number; sent: number; total: number | undefined }
  | { phase: 'done'; files: number; total: number }
  /** `error` is the server's or the connection's; undefined when the server lost the download. */
  | { phase: 'failed'; error: string | undefined };

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
      return { phase: 'failed', error: progress.error };
  }
}

/** Whole percent, never 100 before the end (the last bytes may still be on their way). */
export function percentOf(sent: number, total: number): number {
  if (total <= 0) return 0;
  return Math.min(99, Math.floor((sent / total) * 100));
}

/** The one line of text the status shows, in the language of `texts`. */
export function zipStatusText(view: ZipDownloadView, texts: ZipTexts): string {
  switch (view.phase) {
    case 'idle':
      return '';
    case 'preparing':
      return texts.preparing(view.files);
    case 'downloading':
      return view.total === undefined
        ? texts.downloading(view.sent)
        : texts.downloadingOf(percentOf(view.sent, view.total), view.sent, view.total);
    case 'done':
      return texts.done(view.files, view.total);
    case 'failed':
      return texts.failed(view.error ?? texts.lost);
  }
}
