import type { ZipDownloadRequest } from '@tessera/contract';
import { useCallback, useEffect, useRef, useState } from 'react';
import { fetchZipProgress, requestZipDownload, saveWithBrowser } from '../../lib/api/zip';
import { viewOfProgress } from './zip-progress';
import type { ZipDownloadView } from './zip-progress';

/** How often the page asks how far the ZIP went: smooth enough, and a tiny request. */
const POLL_MS = 400;

export interface ZipDownload {
  view: ZipDownloadView;
  /** A download is being prepared or sent: a second one waits. */
  busy: boolean;
  /** Downloads these images (file names) of the gallery as one ZIP. */
  start: (files: readonly string[]) => void;
  /** Hides the status (the browser's own download goes on). */
  dismiss: () => void;
}

/**
 * One gallery's ZIP download: asks the server for the selection's ZIP, lets the browser save it,
 * and follows its progress until it is sent or fails.
 */
export function useZipDownload(kind: ZipDownloadRequest['kind']): ZipDownload {
  const [view, setView] = useState<ZipDownloadView>({ phase: 'idle' });
  const current = useRef<AbortController | null>(null);
  useEffect(() => () => current.current?.abort(), []);

  const start = useCallback(
    (files: readonly string[]) => {
      current.current?.abort();
      const controller = new AbortController();
      current.current = controller;
      const { signal } = controller;
      setView({ phase: 'preparing', files: files.length });
      void (async () => {
        try {
          const ticket = await requestZipDownload({ kind, files: [...files] });
          if (signal.aborted) return;
          saveWithBrowser(ticket);
          for (;;) {
            await delay(POLL_MS, signal);
            const progress = await fetchZipProgress(ticket.token);
            if (signal.aborted) return;
            const next = viewOfProgress(ticket.files, progress);
            setView(next);
            if (next.phase === 'done' || next.phase === 'failed') return;
          }
        } catch (error) {
          if (signal.aborted) return;
          setView({
            phase: 'failed',
            error: error instanceof Error ? error.message : String(error),
          });
        }
      })();
    },
    [kind],
  );

  const dismiss = useCallback(() => {
    current.current?.abort();
    setView({ phase: 'idle' });
  }, []);

  return {
    view,
    busy: view.phase === 'preparing' || view.phase === 'downloading',
    start,
    dismiss,
  };
}

/** Resolves after `ms`, or rejects at once when the signal aborts. */
function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason as Error);
      },
      { once: true },
    );
  });
}
