import type { Selectable } from 'kysely';
import { JsonText } from '../runtime/json-text.js';
import type { ImagesTable } from './schema.js';

export type ImageKind = ImagesTable['kind'];

export interface ImageRecord {
  id: number;
  ownerId: number;
  kind: ImageKind;
  filename: string;
  sourceImageId: number | null;
  width: number;
  height: number;
  bytes: number;
  metadata: Record<string, unknown>;
  createdAt: string;
  starred: boolean;
  /** HD: when the retention policy removed its file (the row stays); null while it is there. */
  hdRemovedAt: string | null;
}

export type ImageRow = Omit<
  Selectable<ImagesTable>,
  'prompt_key' | 'seed_key' | 'dated_at' | 'hd_removal'
>;

/** The columns an ImageRecord is read from. */
export const IMAGE_COLUMNS = [
  'images.id',
  'images.owner_id',
  'images.kind',
  'images.filename',
  'images.source_image_id',
  'images.width',
  'images.height',
  'images.bytes',
  'images.metadata',
  'images.created_at',
  'images.starred',
  'images.hd_removed_at',
] as const;

/**
 * An image as a list page shows it (image-pages.ts): only what the lists send, its metadata
 * unparsed and its tags read in the same statement. Reading the whole record and the tags apart
 * was twice the database's time of a page of 100 (issue 28, part 2).
 */
export interface ListedImage {
  id: number;
  filename: string;
  metadata: JsonText;
  /** Tag ids, oldest tag first. */
  tags: string[];
  starred: boolean;
  hdRemovedAt: string | null;
}

/** The columns a ListedImage is read from, beside its tag list (`tag_list`, JSON text). */
export const LISTED_IMAGE_COLUMNS = [
  'images.id',
  'images.filename',
  'images.metadata',
  'images.starred',
  'images.hd_removed_at',
] as const;

export function toListedImage(row: ListedImageRow): ListedImage {
  return {
    id: row.id,
    filename: row.filename,
    metadata: JsonText.ofObject(row.metadata),
    tags: JSON.parse(row.tag_list) as string[],
    starred: row.starred === 1,
    hdRemovedAt: row.hd_removed_at,
  };
}

type ListedImageRow = Pick<
  ImageRow,
  'id' | 'filename' | 'metadata' | 'starred' | 'hd_removed_at'
> & { tag_list: string };

export function toImageRecord(row: ImageRow): ImageRecord {
  return {
    id: row.id,
    ownerId: row.owner_id,
    kind: row.kind,
    filename: row.filename,
    sourceImageId: row.source_image_id,
    width: row.width,
    height: row.height,
    bytes: row.bytes,
    metadata: parseMetadata(row.metadata),
    createdAt: row.created_at,
    starred: row.starred === 1,
    hdRemovedAt: row.hd_removed_at,
  };
}

export function parseMetadata(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}
