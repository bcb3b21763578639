import { formatOfHdSize, readImageMetadata } from '@tessera/contract';

/**
 * Height over width of an image from its metadata: an LD image's latent size, or for an HD
 * image the format its size is made from (it keeps its source's shape); square when unknown.
 */
export function imageAspect(metadata: Record<string, unknown>): number {
  const { latentWidth, latentHeight, sizeLabel } = readImageMetadata(metadata);
  const format = sizeLabel && formatOfHdSize(sizeLabel);
  const [width, height] =
    latentWidth && latentHeight
      ? [latentWidth, latentHeight]
      : format
        ? [format.width, format.height]
        : [0, 0];
  if (width <= 0 || height <= 0) return 1;
  // Bounded, so an odd record can neither collapse a tile nor make one screens tall.
  return Math.min(Math.max(height / width, 0.15), 4);
}
