import type { LdImage } from '@tessera/contract';
import type { ResultItem } from './generate-session';

export interface ResultsStripProps {
  results: readonly ResultItem[];
  /** The image in the preview, marked in the strip. */
  current: LdImage | null;
  disabled: boolean;
  onSelect: (image: LdImage) => void;
}

/** SPEC §2's footer strip (checklist G6): the session's results, pending ones as placeholders. */
export function ResultsStrip({ results, current, disabled, onSelect }: ResultsStripProps) {
  if (results.length === 0) return null;
  return (
    <footer className="results">
      <ol className="results-list" aria-label="Results">
        {results.map((item) => (
          <li key={item.key} className="results-item">
            {item.image ? (
              <button
                type="button"
                className={
                  item.image.filename === current?.filename
                    ? 'results-thumb is-current'
                    : 'results-thumb'
                }
                aria-label={`Load ${item.image.filename}`}
                aria-current={item.image.filename === current?.filename ? 'true' : undefined}
                disabled={disabled}
                onClick={() => item.image && onSelect(item.image)}
              >
                <img src={item.image.thumbnail} alt="" loading="lazy" />
              </button>
            ) : (
              <div className="results-thumb is-pending" role="img" aria-label="Pending image">
                <span className="spinner" aria-hidden="true" />
              </div>
            )}
          </li>
        ))}
      </ol>
    </footer>
  );
}
