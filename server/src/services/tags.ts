import { MAX_TAGS_PER_USER, serverError } from '@tessera/contract';
import type { ImageRepository } from '../store/images.js';
import type { TagRecord, TagRepository } from '../store/tags.js';
import { ServiceError } from './errors.js';
import type { Owner } from '../owner.js';

/** The rules of a user's tags and their links to LD images. */
export class TagService {
  constructor(
    private readonly tags: TagRepository,
    private readonly images: ImageRepository,
  ) {}

  list(
    owner: Owner,
    page: number,
    size: number,
  ): Promise<{ tags: readonly TagRecord[]; total: number }> {
    return this.tags.page(owner.id, page, size);
  }

  /**
   * The client chooses the id (SPEC §3); the name must be unique among the owner's tags, and an
   * owner has at most MAX_TAGS_PER_USER tags (the repository refuses the one past it, writing
   * nothing).
   */
  async create(owner: Owner, tag: TagRecord): Promise<TagRecord> {
    if (await this.tags.find(owner.id, tag.id))
      throw new ServiceError(serverError('TAG_ID_TAKEN', tag.id));
    await this.checkNameFree(owner, tag.name, undefined);
    if (!(await this.tags.insert(owner.id, tag, MAX_TAGS_PER_USER)))
      throw new ServiceError(serverError('TAG_LIMIT_REACHED', MAX_TAGS_PER_USER));
    return tag;
  }

  async update(owner: Owner, tag: TagRecord): Promise<void> {
    await this.get(owner, tag.id);
    await this.checkNameFree(owner, tag.name, tag.id);
    await this.tags.update(owner.id, tag);
  }

  /** Unassigns the tag from every image, then deletes it (one transaction). */
  async remove(owner: Owner, id: string): Promise<void> {
    if (!(await this.tags.remove(owner.id, id)))
      throw new ServiceError(serverError('TAG_NOT_FOUND', id));
  }

  async assign(owner: Owner, id: string, filename: string): Promise<void> {
    const imageId = await this.ldImageId(owner, filename);
    await this.get(owner, id);
    await this.images.assignTag(owner.id, imageId, id);
  }

  async unassign(owner: Owner, id: string, filename: string): Promise<void> {
    const imageId = await this.ldImageId(owner, filename);
    await this.get(owner, id);
    await this.images.unassignTag(owner.id, imageId, id);
  }

  private async get(owner: Owner, id: string): Promise<TagRecord> {
    const tag = await this.tags.find(owner.id, id);
    if (!tag) throw new ServiceError(serverError('TAG_NOT_FOUND', id));
    return tag;
  }

  private async ldImageId(owner: Owner, filename: string): Promise<number> {
    const image = await this.images.find(owner.id, 'ld', filename);
    if (!image) throw new ServiceError(serverError('IMAGE_NOT_FOUND', filename));
    return image.id;
  }

  private async checkNameFree(
    owner: Owner,
    name: string,
    exceptId: string | undefined,
  ): Promise<void> {
    const holder = await this.tags.findByName(owner.id, name);
    if (holder && holder.id !== exceptId)
      throw new ServiceError(serverError('TAG_NAME_TAKEN', name));
  }
}
