import type { Tag } from '@tessera/contract';
import { PlusIcon } from '../../components/icons';
import { useInlineCreate } from './use-inline-create';

/**
 * What sits under a tag search box: "Create tag “…”" while the text names no existing tag
 * (checklist T12), and why creating it failed.
 */
export function InlineCreateTag({
  tags,
  search,
  onCreated,
}: {
  tags: readonly Tag[];
  search: string;
  onCreated: (tag: Tag) => void;
}) {
  const inline = useInlineCreate(tags, search);
  return (
    <>
      {inline.offered && (
        <button
          type="button"
          className="tags-inline-create"
          onClick={() => void inline.create().then((tag) => tag && onCreated(tag))}
        >
          <PlusIcon />
          Create tag “{inline.name}”
        </button>
      )}
      {inline.error && (
        <p className="field-error" role="alert">
          {inline.error}
        </p>
      )}
    </>
  );
}
