import { formatImageDate, TEXTS, type HdImage } from '@tessera/contract';
import type { ControlPlace } from '../../components/gallery/image-actions';

/**
 * "Eliminado por la política de retención el …" (issue 29, part 4), dated as the gallery dates
 * images; undefined while the HD file is there.
 */
export function removedByRetentionText(image: HdImage): string | undefined {
  const removedAt = image.removed_by_retention_at;
  if (removedAt === undefined) return undefined;
  return TEXTS.hdRemovedByRetention(formatImageDate({ created_at: removedAt }));
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
  const text = removedByRetentionText(image);
  if (text === undefined) return null;
  return (
    <span className={`hd-retention-note hd-retention-note-${place}`} role="note">
      {text}
      {place === 'details' && (
        <span className="hd-retention-hint">{TEXTS.hdRemovedByRetentionHint}</span>
      )}
    </span>
  );
}
