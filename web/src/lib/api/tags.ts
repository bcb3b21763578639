import { TAG_PAGE_SIZE } from '@tessera/contract';
import type { Tag } from '@tessera/contract';
import type { RequestClient } from '../messaging';

/** Every tag of the user, in pages of TAG_PAGE_SIZE (SPEC §9) until a page comes back short. */
export async function loadAllTags(client: RequestClient): Promise<Tag[]> {
  const all: Tag[] = [];
  for (let page = 1; ; page++) {
    const answer = await client.request('list-tag', { page, size: TAG_PAGE_SIZE });
    all.push(...answer.tags);
    if (answer.tags.length < TAG_PAGE_SIZE) return all;
  }
}

/** Creates the tag with the id the client chose (SPEC §3: ids are made by the client). */
export async function createTag(client: RequestClient, tag: Tag): Promise<void> {
  await client.request('create-tag', { id: tag.id, name: tag.name, color: tag.color });
}

export async function updateTag(client: RequestClient, tag: Tag): Promise<void> {
  await client.request('update-tag', { id: tag.id, name: tag.name, color: tag.color });
}

/** Deletes the tag; the server unassigns it from every image in the same step. */
export async function deleteTag(client: RequestClient, id: string): Promise<void> {
  await client.request('delete-tag', { id });
}

export async function assignTag(
  client: RequestClient,
  id: string,
  filename: string,
): Promise<void> {
  await client.request('assign-tag', { id, filename });
}

export async function unassignTag(
  client: RequestClient,
  id: string,
  filename: string,
): Promise<void> {
  await client.request('unassign-tag', { id, filename });
}
