import { TEXT_BUNDLES } from '@tessera/contract';
import type { LdImage } from '@tessera/contract';
import { seriesFaceOf } from '../../components/gallery/series';
import { seriesStyle } from '../../components/gallery/series-badge';
import type { ResultItem } from './generate-session';
import { useTexts } from '../../lib/i18n';

export interface ResultsStripProps {
  results: readonly ResultItem[];
  /** The image in the preview, marked in the strip. */
  current: LdImage | null;
  disabled: boolean;
  onSelect: (image: LdImage) => void;
}

/**
 * SPEC §2's footer strip (checklist G6): the session's results, pending ones as placeholders. A
 * face of a series (issue 25) carries "Face k/N" under its thumbnail, in its series' colour; a
 * series' pending faces say which face they wait for.
 */
export function ResultsStrip({ results, current, disabled, onSelect }: ResultsStripProps) {
  const TEXTS = useTexts(TEXT_BUNDLES.texts);
  const texts = useTexts(TEXT_BUNDLES.generate);
  if (results.length === 0) return null;
  return (
    <footer className="results">
      <ol className="results-list" aria-label={texts.results}>
        {results.map((item) => (
          <li key={item.key} className={item.face ? 'results-item is-face' : 'results-item'}>
            {item.image ? (
              <ResultThumb
                image={item.image}
                current={item.image.filename === current?.filename}
                disabled={disabled}
                onSelect={onSelect}
              />
            ) : (
              <div
                className="results-thumb is-pending"
                role="img"
                aria-label={
                  item.face
                    ? texts.pendingFace(item.face.face, item.face.faces)
                    : texts.pendingImage
                }
              >
                <span className="spinner" aria-hidden="true" />
              </div>
            )}
            {item.face && !item.image && (
              <span className="results-face" aria-hidden="true">
                {TEXTS.seriesFaceBadge(item.face.face, item.face.faces)}
              </span>
            )}
          </li>
        ))}
      </ol>
    </footer>
  );
}

function ResultThumb({
  image,
  current,
  disabled,
  onSelect,
}: {
  image: LdImage;
  current: boolean;
  disabled: boolean;
  onSelect: (image: LdImage) => void;
}) {
  const TEXTS = useTexts(TEXT_BUNDLES.texts);
  const texts = useTexts(TEXT_BUNDLES.generate);
  const face = seriesFaceOf(image);
  return (
    <>
      <button
        type="button"
        className={current ? 'results-thumb is-current' : 'results-thumb'}
        aria-label={texts.load(image.filename)}
        aria-current={current ? 'true' : undefined}
        disabled={disabled}
        onClick={() => onSelect(image)}
      >
        <img src={image.thumbnail} alt="" loading="lazy" />
      </button>
      {face && (
        <span className="results-face is-known" style={seriesStyle(face.seriesId)}>
          {TEXTS.seriesFaceBadge(face.face, face.faces)}
        </span>
      )}
    </>
  );
}
