// The output format a laid image is read as, which decides its tile sizes and patterns.
import { formatBySize, readImageMetadata } from '@tessera/contract';
import type { OutputFormatName } from '@tessera/contract';

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
