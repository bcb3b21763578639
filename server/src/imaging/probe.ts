import sharp from 'sharp';

export interface ImageProbe {
  format: string;
  width: number;
  height: number;
  /** The JSON object of a PNG `metadata` text chunk, where the image carries one. */
  embeddedMetadata: Record<string, unknown>;
}

/** Reads an image's header (libvips, off the event loop); undefined when it is not an image. */
export async function probeImage(data: Buffer): Promise<ImageProbe | undefined> {
  try {
    const info = await sharp(data).metadata();
    if (!info.format || !info.width || !info.height) return undefined;
    return {
      format: info.format,
      width: info.autoOrient.width,
      height: info.autoOrient.height,
      embeddedMetadata: readMetadataChunk(info.comments),
    };
  } catch {
    return undefined;
  }
}

function readMetadataChunk(
  comments: { keyword: string; text: string }[] | undefined,
): Record<string, unknown> {
  const chunk = comments?.find((c) => c.keyword === 'metadata');
  if (!chunk) return {};
  try {
    const value: unknown = JSON.parse(chunk.text);
    return value && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

/**
 * The pixel size of an image file as its header states it (nothing decoded): how the HD pipeline
 * checks that an engine wrote the size it was asked for.
 */
export async function readImageSize(file: string): Promise<{ width?: number; height?: number }> {
  const info = await sharp(file).metadata();
  return { width: info.width, height: info.height };
}

export const THUMBNAIL_SIZE = 384;

/** A small WebP for galleries; the original's orientation is applied. */
export function makeThumbnail(data: Buffer): Promise<Buffer> {
  return sharp(data)
    .autoOrient()
    .resize(THUMBNAIL_SIZE, THUMBNAIL_SIZE, { fit: 'inside', withoutEnlargement: true })
    .webp({ quality: 80 })
    .toBuffer();
}

/**
 * The thumbnail of an HD image an engine wrote to a local file: libvips reads the file itself
 * (the image is never held whole in memory), with no pixel limit, since the largest size of the
 * HD table (206 MP) is this server's own work.
 */
export function makeHdThumbnail(file: string): Promise<Buffer> {
  return sharp(file, { limitInputPixels: false })
    .resize(THUMBNAIL_SIZE, THUMBNAIL_SIZE, { fit: 'inside' })
    .webp({ quality: 80 })
    .toBuffer();
}
