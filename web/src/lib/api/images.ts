import { IMAGE_PAGE_SIZE } from '@tessera/contract';
import type { HdImage, LdImage, LdSearchInput } from '@tessera/contract';
import type { RequestClient } from '../messaging';

export interface LoadAllOptions<T> {
  /** Sees each page as it arrives, so a gallery can paint the first page before the last. */
  onPage?: (images: readonly T[]) => void;
  /** Stops asking for further pages once aborted (the list was cleared or is no longer wanted). */
  signal?: AbortSignal;
}

/** Thrown by the loaders when their signal was aborted between two pages. */
function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw signal.reason ?? new DOMException('Aborted', 'AbortError');
}

/**
 * The whole LD list (SPEC §9): pages of IMAGE_PAGE_SIZE until a page comes back short. `tags`
 * keeps images with any of them (none: all). With `search` the server finds and orders the
 * images and says which are starred (issue 13); without it the payload is the spec's own.
 */
export async function loadAllLdImages(
  client: RequestClient,
  options: LoadAllOptions<LdImage> & { tags?: readonly string[]; search?: LdSearchInput } = {},
): Promise<LdImage[]> {
  const all: LdImage[] = [];
  for (let page = 1; ; page++) {
    throwIfAborted(options.signal);
    const answer = await client.request('list-low-definition', {
      page,
      size: IMAGE_PAGE_SIZE,
      filters: { tags: [...(options.tags ?? [])] },
      ...(options.search && { search: options.search }),
    });
    throwIfAborted(options.signal);
    all.push(...answer.images);
    options.onPage?.(answer.images);
    if (answer.images.length < IMAGE_PAGE_SIZE) return all;
  }
}

/** The whole HD list, page by page like the LD one. */
export async function loadAllHdImages(
  client: RequestClient,
  options: LoadAllOptions<HdImage> = {},
): Promise<HdImage[]> {
  const all: HdImage[] = [];
  for (let page = 1; ; page++) {
    throwIfAborted(options.signal);
    const answer = await client.request('list-high-definition', { page, size: IMAGE_PAGE_SIZE });
    throwIfAborted(options.signal);
    all.push(...answer.images);
    options.onPage?.(answer.images);
    if (answer.images.length < IMAGE_PAGE_SIZE) return all;
  }
}

/** Has the server index files other pipelines placed in the user's LD folder (SPEC §4 Refresh). */
export async function refreshLdImages(client: RequestClient): Promise<void> {
  await client.request('refresh-low-definition', {});
}

/** Stars or unstars one of the user's LD images (issue 13). */
export async function starLdImage(
  client: RequestClient,
  filename: string,
  starred: boolean,
): Promise<void> {
  await client.request('star-low-definition', { filename, starred });
}

export async function deleteLdImage(client: RequestClient, filename: string): Promise<void> {
  await client.request('delete-low-definition', { filename });
}

export async function deleteHdImage(client: RequestClient, filename: string): Promise<void> {
  await client.request('delete-high-definition', { filename });
}
