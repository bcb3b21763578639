import { formatImageDate, TEXT_BUNDLES, textsIn, type HdImage } from '@tessera/contract';
import type { Locale } from '@tessera/contract';
import type { ControlPlace } from '../../components/gallery/image-actions';
import { useLocale } from '../../lib/i18n';

/**
 * "Eliminado por la política de retención el …" (issue 29, part 4), dated as the gallery dates
 * images; undefined while the HD file is there.
 */
export function removedByRetentionText(image: HdImage, locale: Locale): string | undefined {
  const removedAt = image.removed_by_retention_at;
  if (removedAt === undefined) return undefined;
  return textsIn(TEXT_BUNDLES.texts, locale).hdRemovedByRetention(
    formatImageDate({ created_at: removedAt }, undefined, locale),
  );
}

/**
 * Says that the retention policy removed the HD file: where the Download would be (there is
 * nothing to download), over a tile's picture, or in the details with how to have it again.
 */
export function RetentionNote({
  image,
  place,
}: {
  image: HdImage;
  place: ControlPlace | 'details';
}) {
  const locale = useLocale();
  const text = removedByRetentionText(image, locale);
  if (text === undefined) return null;
  return (
    <span className={`hd-retention-note hd-retention-note-${place}`} role="note">
      {text}
      {place === 'details' && (
        <span className="hd-retention-hint">
          {textsIn(TEXT_BUNDLES.texts, locale).hdRemovedByRetentionHint}
        </span>
      )}
    </span>
  );
}
