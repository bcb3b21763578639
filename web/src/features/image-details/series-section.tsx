import { TEXT_BUNDLES } from '@tessera/contract';
import type { LdImage, SeriesFace } from '@tessera/contract';
import { SeriesBadge } from '../../components/gallery/series-badge';
import { useTexts } from '../../lib/i18n';

/**
 * The LD details of a face of a series (issue 25): its badge, how many of the series' faces the
 * gallery holds when some are missing (deleted, or left out by a search), and "Select series".
 */
export function SeriesSection({
  face,
  faces,
  onSelectSeries,
}: {
  face: SeriesFace;
  /** The series' faces the screen knows of, this one included. */
  faces: readonly LdImage[];
  /** Given (a gallery with a selection), the section offers Select series. */
  onSelectSeries?: () => void;
}) {
  const TEXTS = useTexts(TEXT_BUNDLES.texts);
  const T = useTexts(TEXT_BUNDLES.imageDetails);
  return (
    <div className="details-series" aria-label={T.series}>
      <SeriesBadge face={face} place="inline" />
      {faces.length < face.faces && (
        <span className="details-series-note">{T.facesInView(faces.length, face.faces)}</span>
      )}
      {onSelectSeries && (
        <button type="button" className="button button-small" onClick={onSelectSeries}>
          {TEXTS.selectSeries}
        </button>
      )}
    </div>
  );
}

/** Orders HD of every face of the series at the size chosen above (issue 25, part 4). */
export function SeriesHdButton({
  faces,
  onOrder,
}: {
  faces: readonly LdImage[];
  onOrder: (faces: readonly LdImage[]) => void;
}) {
  const TEXTS = useTexts(TEXT_BUNDLES.texts);
  return (
    <button type="button" className="button" onClick={() => onOrder(faces)}>
      {TEXTS.generateHdForSeries(faces.length)}
    </button>
  );
}
