import type { Tag } from '@tessera/contract';
import { useMutation, useMutationState, useQueryClient } from '@tanstack/react-query';
import type { QueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { assignTag, createTag, deleteTag, unassignTag, updateTag } from '../../lib/api/tags';
import { removeTagFromCachedLdImages, updateCachedLdImage } from '../../lib/images/ld-images';
import { useMessaging } from '../../lib/messaging';
import type { RequestClient } from '../../lib/messaging';
import { tagsQueryKey } from './use-tags';

/** Mutation keys: create/update/delete mark a tag loading (T6); assign/unassign mark a link. */
const TAG_COMMAND = 'tag-command';
const TAG_CHANGE_KEY = [TAG_COMMAND, 'tag'] as const;
const TAG_LINK_KEY = [TAG_COMMAND, 'link'] as const;

interface TagVariables {
  tag: Tag;
}
interface LinkVariables {
  tagId: string;
  filename: string;
}

function setCachedTags(queryClient: QueryClient, user: string, change: (tags: Tag[]) => Tag[]) {
  queryClient.setQueryData<Tag[]>(tagsQueryKey(user), (old) => old && change(old));
}

function signedIn(client: RequestClient | null): RequestClient {
  if (!client) throw new Error('Not signed in');
  return client;
}

export interface TagCommands {
  /** Creates a tag with a client-made id (SPEC §3); it shows, loading, until the server agrees. */
  create(values: { name: string; color: string }): Promise<Tag>;
  update(tag: Tag): Promise<void>;
  /** Deletes the tag; the server and then the local lists take it off every image (T7). */
  remove(tag: Tag): Promise<void>;
  assign(tagId: string, filename: string): Promise<void>;
  unassign(tagId: string, filename: string): Promise<void>;
}

/** The tag commands of SPEC §7, each reflected in the local tag and image lists (T6, T7, T8). */
export function useTagCommands(): TagCommands {
  const client = useMessaging();
  const queryClient = useQueryClient();
  // A list load that crossed the command (the first one, on sign-in) may answer without the
  // change; reading the list again once the server has answered makes the panel true.
  const reloadTags = () =>
    client ? queryClient.invalidateQueries({ queryKey: tagsQueryKey(client.user) }) : undefined;

  const create = useMutation({
    mutationKey: [...TAG_CHANGE_KEY, 'create'],
    mutationFn: ({ tag }: TagVariables) => createTag(signedIn(client), tag),
    onMutate: ({ tag }) => {
      if (client) setCachedTags(queryClient, client.user, (tags) => [...tags, tag]);
    },
    onError: (error, { tag }) => {
      console.error('Creating the tag failed:', error);
      if (client)
        setCachedTags(queryClient, client.user, (tags) => tags.filter((t) => t.id !== tag.id));
    },
    onSettled: reloadTags,
  });

  const update = useMutation({
    mutationKey: [...TAG_CHANGE_KEY, 'update'],
    mutationFn: ({ tag }: TagVariables) => updateTag(signedIn(client), tag),
    onSuccess: (_answer, { tag }) => {
      if (client)
        setCachedTags(queryClient, client.user, (tags) =>
          tags.map((t) => (t.id === tag.id ? tag : t)),
        );
    },
    onError: (error) => console.error('Updating the tag failed:', error),
    onSettled: reloadTags,
  });

  const remove = useMutation({
    mutationKey: [...TAG_CHANGE_KEY, 'delete'],
    mutationFn: ({ tag }: TagVariables) => deleteTag(signedIn(client), tag.id),
    onSuccess: (_answer, { tag }) => {
      if (!client) return;
      removeTagFromCachedLdImages(queryClient, client.user, tag.id);
      setCachedTags(queryClient, client.user, (tags) => tags.filter((t) => t.id !== tag.id));
    },
    onError: (error) => console.error('Deleting the tag failed:', error),
    onSettled: reloadTags,
  });

  const assign = useMutation({
    mutationKey: [...TAG_LINK_KEY, 'assign'],
    mutationFn: ({ tagId, filename }: LinkVariables) =>
      assignTag(signedIn(client), tagId, filename),
    onSuccess: (_answer, { tagId, filename }) => {
      if (client)
        updateCachedLdImage(queryClient, client.user, filename, (image) =>
          image.tags.includes(tagId) ? image : { ...image, tags: [...image.tags, tagId] },
        );
    },
    onError: (error) => console.error('Assigning the tag failed:', error),
  });

  const unassign = useMutation({
    mutationKey: [...TAG_LINK_KEY, 'unassign'],
    mutationFn: ({ tagId, filename }: LinkVariables) =>
      unassignTag(signedIn(client), tagId, filename),
    onSuccess: (_answer, { tagId, filename }) => {
      if (client)
        updateCachedLdImage(queryClient, client.user, filename, (image) => ({
          ...image,
          tags: image.tags.filter((id) => id !== tagId),
        }));
    },
    onError: (error) => console.error('Unassigning the tag failed:', error),
  });

  const createAsync = create.mutateAsync;
  const updateAsync = update.mutateAsync;
  const removeAsync = remove.mutateAsync;
  const assignAsync = assign.mutateAsync;
  const unassignAsync = unassign.mutateAsync;
  return useMemo(
    () => ({
      async create(values) {
        const tag: Tag = { id: crypto.randomUUID(), name: values.name, color: values.color };
        await createAsync({ tag });
        return tag;
      },
      update: async (tag) => void (await updateAsync({ tag })),
      remove: async (tag) => void (await removeAsync({ tag })),
      assign: async (tagId, filename) => void (await assignAsync({ tagId, filename })),
      unassign: async (tagId, filename) => void (await unassignAsync({ tagId, filename })),
    }),
    [createAsync, updateAsync, removeAsync, assignAsync, unassignAsync],
  );
}

/** Ids of the tags whose create, update or delete command is running (SPEC §3 isLoading). */
export function usePendingTagIds(): ReadonlySet<string> {
  const ids = useMutationState({
    filters: { mutationKey: TAG_CHANGE_KEY, status: 'pending' },
    select: (mutation) => (mutation.state.variables as TagVariables | undefined)?.tag.id ?? '',
  });
  const joined = ids.join('\n');
  return useMemo(() => new Set(joined === '' ? [] : joined.split('\n')), [joined]);
}

/** Ids of the tags being assigned to or unassigned from one image right now. */
export function usePendingLinks(filename: string): ReadonlySet<string> {
  const ids = useMutationState({
    filters: {
      mutationKey: TAG_LINK_KEY,
      status: 'pending',
      predicate: (mutation) =>
        (mutation.state.variables as LinkVariables | undefined)?.filename === filename,
    },
    select: (mutation) => (mutation.state.variables as LinkVariables | undefined)?.tagId ?? '',
  });
  const joined = ids.join('\n');
  return useMemo(() => new Set(joined === '' ? [] : joined.split('\n')), [joined]);
}
