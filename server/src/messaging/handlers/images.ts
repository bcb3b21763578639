import type { ImageService } from '../../services/images.js';
import type { CommandHandlers } from './index.js';

type ImageActions =
  | 'list-low-definition'
  | 'delete-low-definition'
  | 'list-high-definition'
  | 'delete-high-definition'
  | 'refresh-low-definition'
  | 'star-low-definition';

export function imageHandlers(images: ImageService): Pick<CommandHandlers, ImageActions> {
  return {
    'list-low-definition': async (owner, { page, size, filters, search }) => {
      const { images: list, total } = await images.list(
        owner,
        'ld',
        page,
        size,
        filters?.tags,
        search,
      );
      // Stars go only to clients that asked with a search: the spec's answer stays as it was.
      return {
        page,
        size,
        total,
        images: list.map(({ starred, hdRemovedAt: _hdOnly, ...image }) =>
          search ? { ...image, starred } : image,
        ),
      };
    },
    'delete-low-definition': async (owner, { filename }) => {
      await images.remove(owner, 'ld', filename);
      return {};
    },
    'list-high-definition': async (owner, { page, size }) => {
      const { images: list, total } = await images.list(owner, 'hd', page, size);
      // HD items carry no tags (DESIGN §3).
      return {
        page,
        size,
        total,
        images: list.map(({ filename, thumbnail, metadata, hdRemovedAt }) => ({
          filename,
          thumbnail,
          metadata,
          ...(hdRemovedAt !== null && { removed_by_retention_at: hdRemovedAt }),
        })),
      };
    },
    'delete-high-definition': async (owner, { filename }) => {
      await images.remove(owner, 'hd', filename);
      return {};
    },
    'refresh-low-definition': async (owner) => {
      await images.refresh(owner, 'ld');
      return {};
    },
    'star-low-definition': async (owner, { filename, starred }) => {
      await images.star(owner, filename, starred);
      return { filename, starred };
    },
  };
}
