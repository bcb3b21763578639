import { readImageMetadata } from '@tessera/contract';

/** Height over width of an image from its metadata's latent size; square when unknown. */
export function imageAspect(metadata: Record<string, unknown>): number {
  const { latentWidth, latentHeight } = readImageMetadata(metadata);
  if (!latentWidth || !latentHeight || latentWidth <= 0 || latentHeight <= 0) return 1;
  // Bounded, so an odd record can neither collapse a tile nor make one screens tall.
  return Math.min(Math.max(latentHeight / latentWidth, 0.15), 4);
}
