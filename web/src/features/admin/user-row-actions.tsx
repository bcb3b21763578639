import { TEXT_BUNDLES } from '@tessera/contract';
import type { AdminUser } from '@tessera/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { setUserDisabled, setUserRole } from '../../lib/api/admin';
import { showChangedUser } from './users-query';
import type { Report } from './users-query';
import { useTexts } from '../../lib/i18n';

/** The buttons of one row: the direct changes run at once, the others open their dialog. */
export function UserRowActions({ user, report }: { user: AdminUser; report: Report }) {
  const T = useTexts(TEXT_BUNDLES.admin);
  const queryClient = useQueryClient();
  const change = useMutation({
    mutationFn: (run: () => Promise<AdminUser>) => run(),
    onMutate: () => {
      report.setError(null);
      report.setNotice(null);
    },
    onSuccess: (changed) => showChangedUser(queryClient, changed),
    onError: (error) => report.setError(error.message),
  });
  const disabled = user.disabledAt !== null;
  const otherRole = user.role === 'admin' ? 'member' : 'admin';
  const removeButton = (
    <button
      type="button"
      className="button"
      onClick={() => report.setDialog({ kind: 'remove', user })}
    >
      {T.remove}
    </button>
  );

  // Removed keeping their images: no account to change any more, only its images to take over
  // or delete.
  if (user.retiredAt !== null) {
    return (
      <div className="admin-row-actions" role="group" aria-label={T.actionsFor(user.username)}>
        <button
          type="button"
          className="button"
          onClick={() => report.setDialog({ kind: 'take-over', user })}
        >
          {T.takeOver}
        </button>
        {removeButton}
      </div>
    );
  }

  return (
    <div className="admin-row-actions" role="group" aria-label={T.actionsFor(user.username)}>
      <button
        type="button"
        className="button"
        onClick={() => report.setDialog({ kind: 'reset', user })}
      >
        {T.resetPassword}
      </button>
      <button
        type="button"
        className="button"
        disabled={change.isPending}
        onClick={() => change.mutate(() => setUserDisabled(user.username, !disabled))}
      >
        {disabled ? T.enable : T.disable}
      </button>
      <button
        type="button"
        className="button"
        disabled={change.isPending}
        onClick={() => change.mutate(() => setUserRole(user.username, otherRole))}
      >
        {otherRole === 'admin' ? T.makeAdmin : T.makeMember}
      </button>
      <button
        type="button"
        className="button"
        onClick={() => report.setDialog({ kind: 'quotas', user })}
      >
        {T.quotas}
      </button>
      {removeButton}
    </div>
  );
}
