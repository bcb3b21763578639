import { formatCount, TEXT_BUNDLES } from '@tessera/contract';
import { useLocale, useTexts } from '../../lib/i18n';

/** SPEC §8: a list that failed to load (checklist D11). */
export function GalleryError() {
  const TEXTS = useTexts(TEXT_BUNDLES.texts);
  return (
    <p className="gallery-state gallery-error" role="alert">
      {TEXTS.imageListError}
    </p>
  );
}

/** SPEC §2: nothing to show (checklist D10), also when the tag filter keeps no image. */
export function GalleryEmpty() {
  const TEXTS = useTexts(TEXT_BUNDLES.texts);
  return <p className="gallery-state gallery-empty">{TEXTS.noImagesFound}</p>;
}

export function GalleryLoading() {
  return (
    <div className="gallery-state" role="status" aria-label="Loading images">
      <span className="spinner" aria-hidden="true" />
    </div>
  );
}

/** How many images there are, and whether more pages are still coming. */
export function GalleryCount({
  shown,
  total,
  loadingMore,
}: {
  shown: number;
  total: number;
  loadingMore: boolean;
}) {
  // The numbers in the chosen locale: 1000 in es-ES (it groups from five digits), 1,000 in en-GB.
  const locale = useLocale();
  const format = (n: number) => formatCount(n, locale);
  const text = loadingMore
    ? `Loading images… ${format(total)}`
    : shown === total
      ? `${format(total)} ${total === 1 ? 'image' : 'images'}`
      : `${format(shown)} of ${format(total)} images`;
  return (
    // Busy while pages stream in, so screen readers announce the total once rather than each page.
    <p
      className="gallery-count"
      role="status"
      aria-live="polite"
      aria-busy={loadingMore}
      aria-label="Image count"
    >
      {text}
    </p>
  );
}
