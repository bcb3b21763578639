import type { TagService } from '../../services/tags.js';
import type { CommandHandlers } from './index.js';

type TagActions =
  'list-tag' | 'create-tag' | 'update-tag' | 'delete-tag' | 'assign-tag' | 'unassign-tag';

export function tagHandlers(tags: TagService): Pick<CommandHandlers, TagActions> {
  return {
    'list-tag': async (owner, { page, size }) => ({
      page,
      size,
      ...(await tags.list(owner, page, size)),
    }),
    'create-tag': async (owner, { id, name, color }) => {
      await tags.create(owner, { id, name, color });
      return { id };
    },
    'update-tag': async (owner, { id, name, color }) => {
      await tags.update(owner, { id, name, color });
      return {};
    },
    'delete-tag': async (owner, { id }) => {
      await tags.remove(owner, id);
      return {};
    },
    'assign-tag': async (owner, { id, filename }) => {
      await tags.assign(owner, id, filename);
      return {};
    },
    'unassign-tag': async (owner, { id, filename }) => {
      await tags.unassign(owner, id, filename);
      return {};
    },
  };
}
