import { TEXT_BUNDLES } from '@tessera/contract';
import { useTexts } from '../../lib/i18n';

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
  const texts = useTexts(TEXT_BUNDLES.gallery);
  return (
    <div className="gallery-state" role="status" aria-label={texts.loadingImages}>
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
  // The numbers are grouped as the language shown groups them ("1.000" is "1000" in es-ES).
  const texts = useTexts(TEXT_BUNDLES.gallery);
  const text = loadingMore
    ? texts.loadingCount(total)
    : shown === total
      ? texts.count(total)
      : texts.countOf(shown, total);
  return (
    // Busy while pages stream in, so screen readers announce the total once rather than each page.
    <p
      className="gallery-count"
      role="status"
      aria-live="polite"
      aria-busy={loadingMore}
      aria-label={texts.countLabel}
    >
      {text}
    </p>
  );
}
