import {
  DEFAULT_LD_SORT,
  seedSearchKey,
  serverError,
  textSearchKey,
  thumbnailUrl,
  type LdSearch,
} from '@tessera/contract';
import type { Logger } from 'pino';
import type { FileArea, FileStore, PendingRemoval } from '../files/file-store.js';
import { faultPoint } from '../runtime/faults.js';
import type { JsonText } from '../runtime/json-text.js';
import { makeThumbnail, probeImage } from '../imaging/probe.js';
import type { Owner } from '../owner.js';
import type { ImageKind, ImageRecord, ImageRepository, ImageSearch } from '../store/images.js';
import { ServiceError } from './errors.js';

export interface ImageListItem {
  filename: string;
  thumbnail: string;
  /** As stored: `stringifyPassingThrough` writes it into a message unparsed. */
  metadata: JsonText;
  tags: string[];
  starred: boolean;
  /** HD: when the retention policy removed the file; null while it is there. */
  hdRemovedAt: string | null;
}

/** A search in the store's terms: the text and the seed folded as their columns are. */
function storeSearch(search: LdSearch): ImageSearch {
  const promptKey = textSearchKey(search.text?.trim() ?? '');
  return {
    ...(promptKey !== '' && { promptKey }),
    ...(search.seed !== undefined && { seedKey: seedSearchKey(search.seed) }),
    ...(search.from !== undefined && { from: search.from }),
    ...(search.to !== undefined && { to: search.to }),
    ...(search.starred === true && { starredOnly: true }),
    sort: search.sort ?? DEFAULT_LD_SORT,
  };
}

const AREA: Record<ImageKind, FileArea> = { ld: 'ld', hd: 'hd' };
const THUMBNAIL_AREA: Record<ImageKind, FileArea> = { ld: 'ld-thumbnails', hd: 'hd-thumbnails' };

/** Thumbnails are WebP whatever the original was; the name says so. */
export function thumbnailName(filename: string): string {
  return `${filename}.webp`;
}

/** The jobs made from an LD image (the HD service's): cancelled when the image is deleted. */
export interface ImageJobs {
  cancelForImage(owner: Owner, filename: string): Promise<void>;
}

/** What is made from an image and goes with it (its material maps, issue 17). */
export interface ImageDerivatives {
  removeFor(owner: Owner, image: ImageRecord): Promise<void>;
}

/** The rules of a user's LD and HD images: listing, deleting, indexing files other pipelines write. */
export class ImageService {
  constructor(
    private readonly images: ImageRepository,
    private readonly files: FileStore,
    private readonly log: Logger,
    /** Stops the jobs that work from an LD image about to be deleted (its HD orders). */
    private readonly jobsOfImage: ImageJobs = { cancelForImage: () => Promise.resolve() },
    /** Removes what was made from an image being deleted (its material maps). */
    private readonly derivatives: ImageDerivatives = { removeFor: () => Promise.resolve() },
  ) {}

  /** One page of the owner's images; with `search`, only those it finds, in its order. */
  async list(
    owner: Owner,
    kind: ImageKind,
    page: number,
    size: number,
    anyOfTags?: readonly string[],
    search?: LdSearch,
  ): Promise<{ images: ImageListItem[]; total: number }> {
    const result = await this.images.page({
      ownerId: owner.id,
      kind,
      page,
      size,
      anyOfTags,
      ...(search && { search: storeSearch(search) }),
    });
    return {
      total: result.total,
      images: result.images.map((image) => ({
        filename: image.filename,
        thumbnail: thumbnailUrl(kind, image.filename),
        metadata: image.metadata,
        tags: image.tags,
        starred: image.starred,
        hdRemovedAt: image.hdRemovedAt,
      })),
    };
  }

  async get(owner: Owner, kind: ImageKind, filename: string): Promise<ImageRecord> {
    const image = await this.images.find(owner.id, kind, filename);
    if (!image) throw new ServiceError(serverError('IMAGE_NOT_FOUND', filename));
    return image;
  }

  /** Stars or unstars one of the owner's LD images; another user's name is simply not found. */
  async star(owner: Owner, filename: string, starred: boolean): Promise<void> {
    const image = await this.get(owner, 'ld', filename);
    await this.images.setStarred(owner.id, image.id, starred);
  }

  /**
   * Deletes the file, its thumbnail, its tag links and its row, or nothing: the files are moved
   * aside first and put back if the row cannot be deleted.
   */
  async remove(owner: Owner, kind: ImageKind, filename: string): Promise<void> {
    const image = await this.get(owner, kind, filename);
    if (kind === 'ld') await this.jobsOfImage.cancelForImage(owner, filename);
    // First, while its rows still name the files (they go with the image's row); maps lost to
    // a failed deletion can be made again, an image cannot.
    await this.derivatives.removeFor(owner, image);
    const pending: PendingRemoval[] = [];
    try {
      pending.push(await this.files.prepareRemoval(owner.username, AREA[kind], filename));
      pending.push(
        await this.files.prepareRemoval(
          owner.username,
          THUMBNAIL_AREA[kind],
          thumbnailName(filename),
        ),
      );
      faultPoint('delete:moved-aside');
      await this.images.remove(owner.id, [image.id]);
      faultPoint('delete:row-removed');
    } catch (err) {
      for (const removal of pending.reverse()) await removal.rollback();
      throw err;
    }
    for (const removal of pending) {
      await removal
        .commit()
        .catch((err: unknown) =>
          this.log.warn({ err, filename }, 'could not delete a removed file'),
        );
    }
  }

  /**
   * Reconciles the user's LD folder with the store: files another pipeline placed there are
   * indexed (with a thumbnail and the metadata they carry); rows whose files vanished go.
   */
  async refresh(owner: Owner, kind: ImageKind = 'ld'): Promise<{ added: number; removed: number }> {
    const [files, known] = await Promise.all([
      this.files.list(owner.username, AREA[kind]),
      this.images.filenames(owner.id, kind),
    ]);
    let added = 0;
    for (const file of files) {
      if (known.has(file.name)) continue;
      if (await this.index(owner, kind, file.name, file.modifiedAt)) added++;
    }
    const present = new Set(files.map((f) => f.name));
    const vanished = [...known].filter(([name]) => !present.has(name));
    for (const [name] of vanished) {
      await this.files
        .prepareRemoval(owner.username, THUMBNAIL_AREA[kind], thumbnailName(name))
        .then((r) => r.commit());
    }
    const removed = await this.images.remove(
      owner.id,
      vanished.map(([, id]) => id),
    );
    return { added, removed };
  }

  /** Adds one image file already in the user's folder to the store; false when it is no image. */
  private async index(
    owner: Owner,
    kind: ImageKind,
    filename: string,
    modifiedAt: Date,
  ): Promise<boolean> {
    const data = await this.files.readBuffer(owner.username, AREA[kind], filename);
    const probe = await probeImage(data);
    if (!probe) {
      this.log.warn({ user: owner.username, filename }, 'not an image: left unindexed');
      return false;
    }
    await this.files.write(
      owner.username,
      THUMBNAIL_AREA[kind],
      thumbnailName(filename),
      await makeThumbnail(data),
    );
    faultPoint('refresh:thumbnail-written');
    await this.images.insert({
      ownerId: owner.id,
      kind,
      filename,
      sourceImageId: null,
      width: probe.width,
      height: probe.height,
      bytes: data.length,
      metadata: probe.embeddedMetadata,
      createdAt: modifiedAt.toISOString(),
    });
    return true;
  }
}
