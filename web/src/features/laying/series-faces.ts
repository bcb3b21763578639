// The images a laying preview lays: the image alone, or every face of its series that the
// gallery has loaded (the faces of a series are LD images sharing its series_id).
import { formatBySize, readImageMetadata, readSeriesFace } from '@tessera/contract';
import type { LdImage, OutputFormatName } from '@tessera/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { LD_IMAGES_QUERY_KEY } from '../../lib/images/ld-images';

/** The faces of `image`'s series found in the lists, face 1 first; the image alone if none. */
export function seriesFacesOf(
  image: LdImage,
  lists: readonly (readonly LdImage[] | undefined)[],
): LdImage[] {
  const series = readSeriesFace(image.metadata);
  if (series === undefined) return [image];
  const byName = new Map<string, { image: LdImage; face: number }>();
  byName.set(image.filename, { image, face: series.face });
  for (const list of lists) {
    for (const candidate of list ?? []) {
      const face = readSeriesFace(candidate.metadata);
      if (face?.seriesId === series.seriesId && !byName.has(candidate.filename))
        byName.set(candidate.filename, { image: candidate, face: face.face });
    }
  }
  return [...byName.values()].sort((a, b) => a.face - b.face).map((entry) => entry.image);
}

/** The faces from every LD list the app holds (the Dashboard's or a search's). */
export function useSeriesFaces(image: LdImage): LdImage[] {
  const queryClient = useQueryClient();
  const lists = queryClient
    .getQueriesData<LdImage[]>({ queryKey: LD_IMAGES_QUERY_KEY })
    .map(([, data]) => data);
  const faces = seriesFacesOf(image, lists);
  const names = faces.map((face) => face.filename).join('\n');
  // The same faces keep the same array, so the pictures load once.
  // eslint-disable-next-line react-hooks/exhaustive-deps -- the names stand for the faces
  return useMemo(() => faces, [names]);
}

/**
 * The image's output format: by its latent size when the metadata has it, else by its picture's
 * size, else by its shape (square, wide, very wide, tall).
 */
export function formatOfImage(
  metadata: Record<string, unknown>,
  picture: { width: number; height: number } | undefined,
): OutputFormatName | undefined {
  const { latentWidth, latentHeight } = readImageMetadata(metadata);
  const byLatent =
    latentWidth !== undefined && latentHeight !== undefined
      ? formatBySize(latentWidth, latentHeight)
      : undefined;
  if (byLatent) return byLatent.name;
  if (!picture) return undefined;
  const bySize = formatBySize(picture.width, picture.height);
  if (bySize) return bySize.name;
  const ratio = picture.width / picture.height;
  if (ratio < 0.8) return 'Slab';
  if (ratio < 1.25) return 'Square';
  return ratio < 4 ? 'Rectangle' : 'Plank';
}
