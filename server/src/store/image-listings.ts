/**
 * What the image repository remembers of the listings it served (issue 28, part 2): per listing
 * (owner, kind, tags, search, page size) the owner's images_version when it was read, its total,
 * and where each page served so far ended. Page N+1 is then read by keyset after page N's end,
 * and the total needs no count, for as long as images_version has not moved.
 */

/** The sort key and id of a page's last row: the next page starts after it. */
export interface PageEnd {
  sortKey: string;
  id: number;
}

export interface Listing {
  readonly version: number;
  readonly total: number;
  /** Page number → its last row. */
  readonly ends: Map<number, PageEnd>;
}

/** Listings kept at most, least recently used dropped first (a few hundred bytes per page). */
const DEFAULT_CAPACITY = 512;
/** Page ends kept per listing: 50,000 images in pages of 100 is 500. */
const MAX_ENDS = 2_000;

export class ImageListings {
  private readonly listings = new Map<string, Listing>();

  constructor(private readonly capacity = DEFAULT_CAPACITY) {}

  get(key: string): Listing | undefined {
    const listing = this.listings.get(key);
    if (listing) {
      this.listings.delete(key);
      this.listings.set(key, listing);
    }
    return listing;
  }

  /** The listing as read at `version`; what was known of an older version is dropped. */
  remember(key: string, version: number, total: number): Listing {
    const known = this.listings.get(key);
    if (known && known.version === version && known.total === total) return known;
    const listing: Listing = { version, total, ends: new Map() };
    this.listings.delete(key);
    this.listings.set(key, listing);
    if (this.listings.size > this.capacity)
      this.listings.delete(this.listings.keys().next().value as string);
    return listing;
  }

  static recordEnd(listing: Listing, page: number, end: PageEnd | undefined): void {
    if (!end || (listing.ends.size >= MAX_ENDS && !listing.ends.has(page))) return;
    listing.ends.set(page, end);
  }
}

/** One key per distinct listing: the same rows in the same order for the same key. */
export function listingKey(parts: {
  ownerId: number;
  kind: string;
  size: number;
  anyOfTags?: readonly string[];
  search?: object;
}): string {
  const tags = [...new Set(parts.anyOfTags ?? [])].sort();
  return JSON.stringify([parts.ownerId, parts.kind, parts.size, tags, parts.search ?? null]);
}
