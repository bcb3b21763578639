// Tags: the user's tags, their panel and filter, the chips on an image and the assign dialog.
export { TagAssignDialog } from './tag-assign-dialog';
export { TagChips } from './tag-chips';
export { filterImagesByTags, useTagFilter } from './tag-filter';
export type { TagFilter } from './tag-filter';
export { TagsPanel } from './tags-panel';
export { tagsQueryKey, useTags } from './use-tags';
