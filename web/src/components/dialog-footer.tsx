import { TEXT_BUNDLES } from '@tessera/contract';
import { useTexts } from '../lib/i18n';

/**
 * A dialog's foot: the refusal's contract text, if any, then Cancel and the action, which says
 * it is at work while its request runs. The action submits the dialog's form, or, with
 * `onAction`, is a button of its own (a confirmation with no form).
 */
export function DialogFooter({
  error,
  pending,
  action,
  onCancel,
  onAction,
  disabled = false,
  pendingLabel,
}: {
  error: string | null;
  pending: boolean;
  action: string;
  onCancel: () => void;
  onAction?: () => void;
  /** The action cannot be taken yet (a choice is missing). */
  disabled?: boolean;
  /** What the action says while it runs; "One moment…" by default. */
  pendingLabel?: string;
}) {
  const T = useTexts(TEXT_BUNDLES.dialog);
  return (
    <>
      {error !== null && (
        <p className="alert" role="alert">
          {error}
        </p>
      )}
      <div className="dialog-actions">
        <button type="button" className="button" onClick={onCancel}>
          {T.cancel}
        </button>
        <button
          type={onAction ? 'button' : 'submit'}
          className="button button-primary"
          disabled={pending || disabled}
          onClick={onAction}
        >
          {pending ? (pendingLabel ?? T.working) : action}
        </button>
      </div>
    </>
  );
}
