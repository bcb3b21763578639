import { TEXT_BUNDLES } from '@tessera/contract';
import { useTexts } from '../../lib/i18n';

/** The admin dialogs' foot: the refusal's contract text, if any, then Cancel and the action. */
export function DialogFooter({
  error,
  pending,
  action,
  onCancel,
}: {
  error: string | null;
  pending: boolean;
  action: string;
  onCancel: () => void;
}) {
  const T = useTexts(TEXT_BUNDLES.admin);
  return (
    <>
      {error !== null && (
        <p className="admin-alert" role="alert">
          {error}
        </p>
      )}
      <div className="dialog-actions">
        <button type="button" className="button" onClick={onCancel}>
          {T.cancel}
        </button>
        <button type="submit" className="button button-primary" disabled={pending}>
          {pending ? T.working : action}
        </button>
      </div>
    </>
  );
}
