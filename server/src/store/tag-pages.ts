/** One page of an owner's tags as list-tag answers it, and the count of them all. */
export interface TagPage<T> {
  tags: readonly T[];
  total: number;
}

/** Pages kept at most: past it the least recently read goes. */
const MAX_PAGES = 2000;

/**
 * The tag pages this process answered, each with the owner's tag version it was read at
 * (migration 0030). list-tag runs on every tags panel and tags change rarely: a page is served
 * again, for one primary-key lookup instead of the page's query, while the version is the same,
 * whichever process or cascade changed the tags meanwhile. The version must be read before the
 * page: a change in between only makes the kept page older than its version says, never newer.
 * An owner's id is never given to another user (AUTOINCREMENT, an identity column), so a page is
 * never served to a new owner whose version happens to match.
 */
export class TagPageCache<T> {
  private readonly pages = new Map<string, { version: number; page: TagPage<T> }>();

  constructor(private readonly maxPages = MAX_PAGES) {}

  get(ownerId: number, page: number, size: number, version: number): TagPage<T> | undefined {
    const key = pageKey(ownerId, page, size);
    const kept = this.pages.get(key);
    if (kept?.version !== version) return undefined;
    this.pages.delete(key);
    this.pages.set(key, kept);
    return kept.page;
  }

  /** Keeps the page, and gives it back as kept. */
  set(ownerId: number, page: number, size: number, version: number, value: TagPage<T>): TagPage<T> {
    const key = pageKey(ownerId, page, size);
    this.pages.delete(key);
    if (this.pages.size >= this.maxPages) {
      this.pages.delete(this.pages.keys().next().value as string);
    }
    // Frozen: one object answers many requests, none may change it for the next.
    const kept = Object.freeze({
      ...value,
      tags: Object.freeze(value.tags.map((t) => Object.freeze(t))),
    });
    this.pages.set(key, { version, page: kept });
    return kept;
  }

  get size(): number {
    return this.pages.size;
  }
}

const pageKey = (ownerId: number, page: number, size: number) => `${ownerId}:${page}:${size}`;
