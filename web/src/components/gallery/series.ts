// Tile series (issue 25): the faces of one design, told apart by their metadata (series_id, face,
// faces). Shared by the galleries, the Generate footer and the LD details.
import { readSeriesFace } from '@tessera/contract';
import type { SeriesFace } from '@tessera/contract';
import type { GalleryImage } from './gallery-image';

/** The image's place in its series, or undefined for a single image. */
export function seriesFaceOf(image: Pick<GalleryImage, 'metadata'>): SeriesFace | undefined {
  return readSeriesFace(image.metadata);
}

/**
 * A hue (0–359) of its own for a series, so neighbouring series read apart at a glance. The id's
 * FNV-1a hash spreads ids that differ in one character over the whole circle.
 */
export function seriesHue(seriesId: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < seriesId.length; i++) {
    hash ^= seriesId.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % 360;
}

/** The faces of `seriesId` among `images`, face 1 first. */
export function facesOfSeries<T extends GalleryImage>(images: readonly T[], seriesId: string): T[] {
  const faces: { image: T; face: number }[] = [];
  for (const image of images) {
    const face = seriesFaceOf(image);
    if (face?.seriesId === seriesId) faces.push({ image, face: face.face });
  }
  return faces.sort((a, b) => a.face - b.face).map((entry) => entry.image);
}

/**
 * The list in its own order, but with the faces of each series together, face 1 first, where the
 * series' first face in the list stands. The gallery's order (newest, oldest, name) is the
 * server's; faces of one job share their date and name stem, yet an equal date or a name such as
 * "-f10" may set other images between them: this puts them back side by side. A list without a
 * series is returned as is (the same array), so single images keep the spec's order untouched.
 */
export function groupSeries<T extends GalleryImage>(images: readonly T[]): readonly T[] {
  const groups = new Map<string, { image: T; face: number }[]>();
  for (const image of images) {
    const face = seriesFaceOf(image);
    if (!face) continue;
    const group = groups.get(face.seriesId);
    if (group) group.push({ image, face: face.face });
    else groups.set(face.seriesId, [{ image, face: face.face }]);
  }
  if (groups.size === 0) return images;
  const placed = new Set<string>();
  const grouped: T[] = [];
  for (const image of images) {
    const face = seriesFaceOf(image);
    if (!face) {
      grouped.push(image);
      continue;
    }
    if (placed.has(face.seriesId)) continue;
    placed.add(face.seriesId);
    const group = groups.get(face.seriesId) ?? [];
    grouped.push(...group.sort((a, b) => a.face - b.face).map((entry) => entry.image));
  }
  return grouped;
}
