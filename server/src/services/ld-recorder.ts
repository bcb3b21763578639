import type { FileStore } from '../files/file-store.js';
import { withPngText } from '../imaging/png-text.js';
import { makeThumbnail, probeImage } from '../imaging/probe.js';
import { faultPoint, holdPoint } from '../runtime/faults.js';
import type { ImageRepository } from '../store/images.js';
import type { Owner } from '../owner.js';
import { thumbnailName } from './images.js';

/** An engine's output to keep as an LD image. */
export interface LdImageToRecord {
  owner: Owner;
  filename: string;
  /** The PNG the engine wrote; the metadata goes into it (a text chunk) and into the row. */
  png: Buffer;
  metadata: Record<string, unknown>;
  createdAt: string;
  /**
   * A face of a series: each fault point is also reached under the face's own name
   * (`preview:recorded:f2`), so the crash-point suite can stop a series after any face.
   */
  face?: number;
}

/**
 * Records one LD image in the commit order of docs/reliability.md: thumbnail (written, flushed,
 * renamed) → LD file (likewise) → row. Writing replaces, so a rerun after a crash overwrites
 * what the crash left under the same name.
 */
export async function recordLdImage(
  images: ImageRepository,
  files: FileStore,
  image: LdImageToRecord,
): Promise<void> {
  const { owner, filename, metadata, createdAt, face } = image;
  const reached = (step: string) => {
    faultPoint(step);
    if (face !== undefined) faultPoint(`${step}:f${face}`);
  };
  // The file carries its metadata, so refresh-low-definition could rebuild the record from it.
  const png = withPngText(image.png, 'metadata', JSON.stringify(metadata));
  const probe = await probeImage(png);
  if (!probe) throw new Error('The engine wrote no readable image');
  await files.write(
    owner.username,
    'ld-thumbnails',
    thumbnailName(filename),
    await makeThumbnail(png),
  );
  reached('preview:thumbnail-written');
  // Written (atomically) before it is recorded: nothing half-written is ever listed.
  const stored = await files.write(owner.username, 'ld', filename, png);
  reached('preview:file-written');
  await holdPoint('preview:file-written');
  await images.insert({
    ownerId: owner.id,
    kind: 'ld',
    filename,
    sourceImageId: null,
    width: probe.width,
    height: probe.height,
    bytes: stored.bytes,
    metadata,
    createdAt,
  });
  reached('preview:recorded');
}
