import { DEFAULT_TAG_COLOR, matchesTagSearch, TEXT_BUNDLES } from '@tessera/contract';
import type { Tag } from '@tessera/contract';
import { memo, useCallback, useId, useMemo, useState } from 'react';
import { EditIcon, PlusIcon, TrashIcon } from '../../components/icons';
import { useTexts } from '../../lib/i18n';
import { ConfirmDialog } from './confirm-dialog';
import type { TagFilter } from './tag-filter';
import { InlineCreateTag } from './inline-create-tag';
import { TagFormDialog } from './tag-form-dialog';
import { TagSearch } from './tag-search';
import { TagSwatch } from './tag-swatch';
import { usePendingTagIds, useTagCommands } from './use-tag-commands';
import { useTags } from './use-tags';
import './tags.css';

type OpenDialog = { kind: 'create' } | { kind: 'edit'; tag: Tag } | { kind: 'delete'; tag: Tag };

/**
 * The Tags panel of SPEC §2 (checklist D4, T1–T3, T6, T12): create (dialog, or inline from the
 * search text), edit, delete with confirmation, search, and click a tag to filter by it.
 */
export function TagsPanel({ filter }: { filter: TagFilter }) {
  const texts = useTexts(TEXT_BUNDLES.tags);
  const headingId = useId();
  const { tags, isLoading, error } = useTags();
  const commands = useTagCommands();
  const pending = usePendingTagIds();
  const [search, setSearch] = useState('');
  const [dialog, setDialog] = useState<OpenDialog | null>(null);
  const names = useMemo(() => tags.map((tag) => tag.name), [tags]);
  const shown = useMemo(
    () => tags.filter((tag) => matchesTagSearch(tag.name, search)),
    [tags, search],
  );
  const close = () => setDialog(null);
  const edit = useCallback((tag: Tag) => setDialog({ kind: 'edit', tag }), []);
  const remove = useCallback((tag: Tag) => setDialog({ kind: 'delete', tag }), []);

  return (
    <section className="tags-panel" aria-labelledby={headingId}>
      <div className="tags-panel-head">
        <h2 id={headingId} className="tags-panel-title">
          {texts.tags}
        </h2>
        <button
          type="button"
          className="icon-button"
          aria-label={texts.newTag}
          title={texts.newTag}
          onClick={() => setDialog({ kind: 'create' })}
        >
          <PlusIcon />
        </button>
      </div>
      <TagSearch value={search} onChange={setSearch} />
      <InlineCreateTag tags={tags} search={search} onCreated={() => setSearch('')} />
      {filter.enabled.size > 0 && (
        <button type="button" className="tags-clear-filter" onClick={filter.clear}>
          {texts.showAll}
        </button>
      )}
      <ul className="tags-list" aria-label={texts.tags} aria-busy={isLoading}>
        {shown.map((tag) => (
          <TagRow
            key={tag.id}
            tag={tag}
            enabled={filter.enabled.has(tag.id)}
            loading={pending.has(tag.id)}
            onToggle={filter.toggle}
            onEdit={edit}
            onDelete={remove}
          />
        ))}
      </ul>
      {!isLoading && tags.length === 0 && error == null && (
        <p className="tags-note">{texts.none}</p>
      )}
      {error != null && (
        <p className="field-error" role="alert">
          {texts.loadFailed}
        </p>
      )}

      {dialog?.kind === 'create' && (
        <TagFormDialog
          title={texts.newTag}
          submitLabel={texts.create}
          initial={{ name: '', color: DEFAULT_TAG_COLOR }}
          existingNames={names}
          onSubmit={async (values) => void (await commands.create(values))}
          onClose={close}
        />
      )}
      {dialog?.kind === 'edit' && (
        <TagFormDialog
          title={texts.editTitle}
          submitLabel={texts.save}
          initial={{ name: dialog.tag.name, color: dialog.tag.color }}
          existingNames={names}
          currentName={dialog.tag.name}
          onSubmit={(values) => commands.update({ ...dialog.tag, ...values })}
          onClose={close}
        />
      )}
      {dialog?.kind === 'delete' && (
        <ConfirmDialog
          title={texts.deleteTitle}
          confirmLabel={texts.delete}
          onConfirm={() => void commands.remove(dialog.tag).catch(() => undefined)}
          onClose={close}
        >
          <p>{texts.deleteQuestion(dialog.tag.name)}</p>
        </ConfirmDialog>
      )}
    </section>
  );
}

interface TagRowProps {
  tag: Tag;
  enabled: boolean;
  loading: boolean;
  onToggle: (id: string) => void;
  onEdit: (tag: Tag) => void;
  onDelete: (tag: Tag) => void;
}

const TagRow = memo(function TagRow({
  tag,
  enabled,
  loading,
  onToggle,
  onEdit,
  onDelete,
}: TagRowProps) {
  const texts = useTexts(TEXT_BUNDLES.tags);
  return (
    <li className={loading ? 'tag-row is-loading' : 'tag-row'} aria-busy={loading}>
      <button
        type="button"
        className="tag-toggle"
        aria-pressed={enabled}
        disabled={loading}
        title={enabled ? texts.filtering : texts.filterBy}
        onClick={() => onToggle(tag.id)}
      >
        <TagSwatch color={tag.color} />
        <span className="tag-name">{tag.name}</span>
      </button>
      {loading ? (
        <span className="tag-spinner" role="status" aria-label={texts.saving(tag.name)} />
      ) : (
        <>
          <button
            type="button"
            className="icon-button"
            aria-label={texts.editTag(tag.name)}
            title={texts.edit}
            onClick={() => onEdit(tag)}
          >
            <EditIcon />
          </button>
          <button
            type="button"
            className="icon-button icon-button-danger"
            aria-label={texts.deleteTag(tag.name)}
            title={texts.delete}
            onClick={() => onDelete(tag)}
          >
            <TrashIcon />
          </button>
        </>
      )}
    </li>
  );
});
