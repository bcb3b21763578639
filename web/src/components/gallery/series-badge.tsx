import { TEXT_BUNDLES } from '@tessera/contract';
import type { SeriesFace } from '@tessera/contract';
import type { CSSProperties } from 'react';
import { SeriesIcon } from '../icons';
import type { ControlPlace } from './image-actions';
import { seriesHue } from './series';
import { useTexts } from '../../lib/i18n';
import './series.css';

/** The series' own colour as a custom property, for the badge and the tile's stripe. */
export function seriesStyle(seriesId: string): CSSProperties {
  return { '--series-hue': seriesHue(seriesId) } as CSSProperties;
}

/**
 * "Face 2/4" in the series' colour (issue 25). On a tile it lies over the picture's top left
 * corner with a stripe of the colour along the top. In a table row it is the row's "Select
 * series" button (the actions column keeps its width); elsewhere it is plain text.
 */
export function SeriesBadge({
  face,
  place,
  filename,
  onSelectSeries,
}: {
  face: SeriesFace;
  place: ControlPlace | 'inline';
  /** With onSelectSeries: the image the badge belongs to, which names the button. */
  filename?: string;
  onSelectSeries?: (seriesId: string) => void;
}) {
  const TEXTS = useTexts(TEXT_BUNDLES.texts);
  const texts = useTexts(TEXT_BUNDLES.gallery);
  const text = TEXTS.seriesFaceBadge(face.face, face.faces);
  const className = `series-badge series-badge-${place}`;
  const style = seriesStyle(face.seriesId);
  if (onSelectSeries && filename !== undefined) {
    return (
      <button
        type="button"
        className={`${className} series-badge-button`}
        style={style}
        aria-label={texts.selectSeriesOf(filename)}
        title={`${TEXTS.selectSeries} (${text})`}
        onClick={() => onSelectSeries(face.seriesId)}
      >
        {text}
      </button>
    );
  }
  const badge = (
    <span className={className} style={style} title={texts.series(face.seriesId)}>
      {text}
    </span>
  );
  if (place !== 'tile') return badge;
  return (
    <>
      <span className="series-stripe" style={style} aria-hidden="true" />
      {badge}
    </>
  );
}

/** Selects every face of the image's series in the gallery (issue 25, "Select series"). */
export function SelectSeriesButton({
  filename,
  seriesId,
  place,
  onSelectSeries,
}: {
  filename: string;
  seriesId: string;
  place: ControlPlace;
  onSelectSeries: (seriesId: string) => void;
}) {
  const TEXTS = useTexts(TEXT_BUNDLES.texts);
  const texts = useTexts(TEXT_BUNDLES.gallery);
  return (
    <button
      type="button"
      className={place === 'tile' ? 'tile-action series-select' : 'icon-button series-select'}
      aria-label={texts.selectSeriesOf(filename)}
      title={TEXTS.selectSeries}
      onClick={() => onSelectSeries(seriesId)}
    >
      <SeriesIcon />
    </button>
  );
}
