import { TEXT_BUNDLES, validateTagName } from '@tessera/contract';
import { useId, useState } from 'react';
import type { FormEvent } from 'react';
import { Dialog } from '../../components/gallery/dialog';
import { currentTexts, useTexts } from '../../lib/i18n';
import { tagSaveFailure } from './save-failure';
import './tags.css';

export interface TagFormValues {
  name: string;
  color: string;
}

export interface TagFormDialogProps {
  title: string;
  submitLabel: string;
  initial: TagFormValues;
  /** The user's tag names, for the duplicate rule. */
  existingNames: readonly string[];
  /** Editing: the tag's own name, which is no duplicate of itself (checklist T10). */
  currentName?: string;
  /** Resolves once saved (the dialog then closes through onClose); rejects when it failed. */
  onSubmit: (values: TagFormValues) => Promise<void>;
  onClose: () => void;
}

/**
 * Create or edit a tag (checklist T1, T9–T12): name checked with the contract's rule on submit
 * and, after a first attempt, as it is typed; colour free (T11).
 */
export function TagFormDialog({
  title,
  submitLabel,
  initial,
  existingNames,
  currentName,
  onSubmit,
  onClose,
}: TagFormDialogProps) {
  const texts = useTexts(TEXT_BUNDLES.tags);
  const id = useId();
  const [name, setName] = useState(initial.name);
  const [color, setColor] = useState(initial.color);
  // A colour the picker cannot show (any text is allowed, T11) is kept unless it is changed.
  const [colorChanged, setColorChanged] = useState(false);
  const [attempted, setAttempted] = useState(false);
  const [saving, setSaving] = useState(false);
  const [failed, setFailed] = useState<string | undefined>(undefined);
  // Not while saving: the tag's own optimistic entry is in `existingNames` by then, and the
  // name would read as its own duplicate until the dialog closes.
  const nameError =
    attempted && !saving ? validateTagName(name, existingNames, currentName) : undefined;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setAttempted(true);
    setFailed(undefined);
    if (saving || validateTagName(name, existingNames, currentName) !== undefined) return;
    setSaving(true);
    try {
      // Stored as the contract stores it, so the names compare as the duplicate rule does.
      await onSubmit({ name: name.normalize('NFC'), color: colorChanged ? color : initial.color });
      onClose();
    } catch (error) {
      setFailed(tagSaveFailure(error, currentTexts(TEXT_BUNDLES.tags).saveFailed));
      setSaving(false);
    }
  }

  return (
    <Dialog title={title} onClose={onClose} className="tag-dialog">
      <form className="tag-form" onSubmit={(event) => void submit(event)} noValidate>
        <label className="field" htmlFor={`${id}-name`}>
          <span className="field-label">{texts.name}</span>
          <input
            id={`${id}-name`}
            className="field-input"
            type="text"
            autoComplete="off"
            value={name}
            aria-invalid={nameError !== undefined}
            aria-describedby={nameError ? `${id}-name-error` : undefined}
            onChange={(event) => setName(event.target.value)}
          />
        </label>
        {nameError && (
          <p id={`${id}-name-error`} className="field-error" role="alert">
            {nameError}
          </p>
        )}
        <label className="field tag-form-color" htmlFor={`${id}-color`}>
          <span className="field-label">{texts.colour}</span>
          <input
            id={`${id}-color`}
            className="tag-color-input"
            type="color"
            value={color}
            onChange={(event) => {
              setColor(event.target.value);
              setColorChanged(true);
            }}
          />
        </label>
        {failed && (
          <p className="field-error" role="alert">
            {failed}
          </p>
        )}
        <div className="dialog-actions">
          <button type="button" className="button" onClick={onClose}>
            {texts.cancel}
          </button>
          <button type="submit" className="button button-primary" disabled={saving}>
            {submitLabel}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
