import { matchesTagSearch, TEXT_BUNDLES } from '@tessera/contract';
import { useMemo, useState } from 'react';
import { useTexts } from '../../lib/i18n';
import { InlineCreateTag } from './inline-create-tag';
import { TagSearch } from './tag-search';
import { TagSwatch } from './tag-swatch';
import { useTags } from './use-tags';
import './tags.css';

export interface TagPickerProps {
  /** The tags currently chosen (for an image: the tags it carries). */
  selectedIds: readonly string[];
  /**
   * A tag was ticked (true) or unticked (false). Return a promise when the change takes time:
   * the box shows where it is going, and accepts no clicks, until the promise settles.
   */
  onToggle: (tagId: string, selected: boolean) => unknown;
  /** Tags whose change is still running: shown as loading and not clickable meanwhile. */
  pendingIds?: ReadonlySet<string>;
  /** Names the list for assistive tech, e.g. "Tags of image.png". */
  label: string;
}

const NONE: ReadonlySet<string> = new Set();

/**
 * Picks tags from the user's list: search (T2), tick or untick, and create a tag inline from the
 * search text with a random colour (T12), which is then ticked. Reusable wherever tags are chosen.
 */
export function TagPicker({ selectedIds, onToggle, pendingIds = NONE, label }: TagPickerProps) {
  const texts = useTexts(TEXT_BUNDLES.tags);
  const { tags, isLoading } = useTags();
  const [search, setSearch] = useState('');
  const selected = useMemo(() => new Set(selectedIds), [selectedIds]);
  // Changes under way, by tag: what the box should show until the change has settled.
  const [intents, setIntents] = useState<ReadonlyMap<string, boolean>>(() => new Map());

  function toggle(tagId: string, checked: boolean) {
    setIntents((current) => new Map(current).set(tagId, checked));
    void Promise.resolve(onToggle(tagId, checked))
      .catch(() => undefined)
      .finally(() =>
        setIntents((current) => {
          const next = new Map(current);
          next.delete(tagId);
          return next;
        }),
      );
  }
  const shown = useMemo(
    () => tags.filter((tag) => matchesTagSearch(tag.name, search)),
    [tags, search],
  );

  return (
    <div className="tag-picker">
      <TagSearch value={search} onChange={setSearch} />
      <InlineCreateTag
        tags={tags}
        search={search}
        onCreated={(tag) => {
          setSearch('');
          toggle(tag.id, true);
        }}
      />
      <ul className="tag-picker-list" aria-label={label} aria-busy={isLoading}>
        {shown.map((tag) => {
          const intent = intents.get(tag.id);
          const busy = intent !== undefined || pendingIds.has(tag.id);
          const checked = intent ?? selected.has(tag.id);
          return (
            <li key={tag.id} className={busy ? 'tag-pick is-loading' : 'tag-pick'} aria-busy={busy}>
              <label className="tag-pick-label">
                <input
                  type="checkbox"
                  checked={checked}
                  disabled={busy}
                  onChange={(event) => toggle(tag.id, event.target.checked)}
                />
                <TagSwatch color={tag.color} />
                <span className="tag-name">{tag.name}</span>
                {busy && <span className="tag-spinner" aria-hidden="true" />}
              </label>
            </li>
          );
        })}
      </ul>
      {!isLoading && tags.length === 0 && <p className="tags-note">{texts.pickerEmpty}</p>}
    </div>
  );
}
