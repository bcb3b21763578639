import { TEXT_BUNDLES } from '@tessera/contract';
import type { ReactNode } from 'react';
import { SelectionBar } from '../../components/gallery/selection-bar';
import { DownloadIcon } from '../../components/icons';
import { useTexts } from '../../lib/i18n';
import type { ZipDownload } from './use-zip-download';
import { zipStatusText } from './zip-progress';
import './zip.css';

/** The selection's "Download ZIP" action; disabled while a ZIP is on its way. */
export function DownloadZipButton({ files, zip }: { files: readonly string[]; zip: ZipDownload }) {
  const T = useTexts(TEXT_BUNDLES.zip);
  return (
    <button
      type="button"
      className="button button-small zip-button"
      disabled={zip.busy || files.length === 0}
      onClick={() => zip.start(files)}
    >
      <DownloadIcon />
      {T.download}
    </button>
  );
}

/**
 * How the ZIP download goes: a bar (indeterminate while the server prepares it) and a line such
 * as "Downloading… 45 % (12.3 MB of 27.0 MB)"; at the end, what was downloaded or why it failed.
 */
export function ZipDownloadStatus({ zip }: { zip: ZipDownload }) {
  const T = useTexts(TEXT_BUNDLES.zip);
  const { view } = zip;
  if (view.phase === 'idle') return null;
  const ended = view.phase === 'done' || view.phase === 'failed';
  return (
    <div
      className={`zip-status zip-status-${view.phase}`}
      role={view.phase === 'failed' ? 'alert' : 'status'}
      aria-label={T.status}
    >
      {view.phase === 'preparing' && <progress aria-label={T.progress} />}
      {view.phase === 'downloading' &&
        (view.total === undefined ? (
          <progress aria-label={T.progress} />
        ) : (
          <progress aria-label={T.progress} max={view.total} value={view.sent} />
        ))}
      <span className="zip-status-text">{zipStatusText(view, T)}</span>
      {ended && (
        <button
          type="button"
          className="zip-status-close"
          aria-label={T.dismiss}
          onClick={zip.dismiss}
        >
          ×
        </button>
      )}
    </div>
  );
}

/**
 * A gallery's selection tools (Dashboard and Output): the selection bar with "Download ZIP" and
 * the screen's own `children` actions while something is selected, then the ZIP's progress.
 */
export function ZipSelectionTools({
  files,
  zip,
  onClear,
  children,
}: {
  files: readonly string[];
  zip: ZipDownload;
  onClear: () => void;
  children?: ReactNode;
}) {
  return (
    <>
      {files.length > 0 && (
        <SelectionBar count={files.length} onClear={onClear}>
          <DownloadZipButton files={files} zip={zip} />
          {children}
        </SelectionBar>
      )}
      <ZipDownloadStatus zip={zip} />
    </>
  );
}
