import { TEXT_BUNDLES } from '@tessera/contract';
import type { AdminUser } from '@tessera/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Dialog } from '../../components/gallery/dialog';
import { takeOverImages } from '../../lib/api/admin';
import { DialogFooter } from '../../components/dialog-footer';
import { useDialogAction } from '../../components/use-dialog-action';
import { readUsersAgain } from './users-query';
import type { Report } from './users-query';
import { useTexts } from '../../lib/i18n';

/** Taking over a retired user's images names what they are before the admin confirms. */
export function TakeOverDialog({
  user,
  onClose,
  report,
}: {
  user: AdminUser;
  onClose: () => void;
  report: Report;
}) {
  const T = useTexts(TEXT_BUNDLES.admin);
  const queryClient = useQueryClient();
  const { mutation, error, submit } = useDialogAction(
    () => takeOverImages(user.username),
    (answer) => {
      readUsersAgain(queryClient);
      // The admin's own galleries have new images: every cached list of theirs is stale.
      void queryClient.invalidateQueries();
      report.setError(null);
      report.setNotice(T.takenOver(answer.username, answer.ldImages, answer.hdImages));
      report.setDialog(null);
    },
  );

  return (
    <Dialog title={T.takeOverTitle(user.username)} onClose={onClose} className="admin-dialog">
      <form className="admin-form" onSubmit={submit()}>
        <p className="admin-notice">
          {T.removeCounts(user.ldImages, user.hdImages, user.storageBytes)}
        </p>
        <p>{T.takeOverNote}</p>
        <DialogFooter
          error={error}
          pending={mutation.isPending}
          action={T.takeOverConfirm}
          onCancel={onClose}
        />
      </form>
    </Dialog>
  );
}
