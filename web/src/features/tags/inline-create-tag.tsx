import { TEXT_BUNDLES } from '@tessera/contract';
import type { Tag } from '@tessera/contract';
import { PlusIcon } from '../../components/icons';
import { useTexts } from '../../lib/i18n';
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
  const texts = useTexts(TEXT_BUNDLES.tags);
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
          {texts.createNamed(inline.name)}
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
