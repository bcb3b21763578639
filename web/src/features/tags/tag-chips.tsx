import { TEXT_BUNDLES } from '@tessera/contract';
import { memo } from 'react';
import { useTexts } from '../../lib/i18n';
import { TagSwatch } from './tag-swatch';
import { useTagsById } from './use-tags';
import './tags.css';

/**
 * An image's tags as coloured chips. It reads the tag list itself, so renaming or recolouring a
 * tag re-renders these small lists, not the gallery items around them (checklist: scale).
 */
export const TagChips = memo(function TagChips({
  ids,
  compact = false,
}: {
  ids: readonly string[];
  /** Colour dots only (grid tiles); the names are in the dots' tooltips and labels. */
  compact?: boolean;
}) {
  const texts = useTexts(TEXT_BUNDLES.tags);
  const byId = useTagsById();
  const tags = ids.flatMap((id) => byId.get(id) ?? []);
  if (tags.length === 0) return null;
  return (
    <ul className={compact ? 'tag-chips is-compact' : 'tag-chips'} aria-label={texts.tags}>
      {tags.map((tag) => (
        <li key={tag.id} className="tag-chip" title={tag.name}>
          <TagSwatch color={tag.color} />
          {compact ? <span className="visually-hidden">{tag.name}</span> : tag.name}
        </li>
      ))}
    </ul>
  );
});
