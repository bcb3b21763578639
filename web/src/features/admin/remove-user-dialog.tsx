import { TEXT_BUNDLES, REMOVED_IMAGES_CHOICES } from '@tessera/contract';
import type { AdminRemoveRequest, AdminUser } from '@tessera/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Dialog } from '../../components/gallery/dialog';
import { removeUser } from '../../lib/api/admin';
import { DialogFooter } from '../../components/dialog-footer';
import { useDialogAction } from '../../components/use-dialog-action';
import { readUsersAgain } from './users-query';
import type { Report } from './users-query';
import { useTexts } from '../../lib/i18n';

type ImagesChoice = AdminRemoveRequest['images'];

/** Removal names what the user has, and asks what becomes of it: kept for takeover, or deleted. */
export function RemoveUserDialog({
  user,
  onClose,
  report,
}: {
  user: AdminUser;
  onClose: () => void;
  report: Report;
}) {
  const T = useTexts(TEXT_BUNDLES.admin);
  const choiceTexts: Record<ImagesChoice, string> = { keep: T.removeKeep, delete: T.removeDelete };
  const queryClient = useQueryClient();
  // A user removed before with their images kept can only have those deleted now.
  const choices = user.retiredAt === null ? REMOVED_IMAGES_CHOICES : (['delete'] as const);
  const [choice, setChoice] = useState<ImagesChoice>(choices[0]);
  const name = useId();
  const { mutation, error, submit } = useDialogAction(
    () => removeUser(user.username, choice),
    (answer) => {
      readUsersAgain(queryClient);
      report.setError(null);
      report.setNotice(
        answer.images === 'keep'
          ? T.removedKept(answer.username)
          : T.removedDeleted(answer.username),
      );
      report.setDialog(null);
    },
  );

  return (
    <Dialog title={T.removeTitle(user.username)} onClose={onClose} className="admin-dialog">
      <form className="admin-form" onSubmit={submit()}>
        <p className="admin-notice">
          {T.removeCounts(user.ldImages, user.hdImages, user.storageBytes)}
        </p>
        <fieldset className="admin-choices">
          <legend className="field-label">{T.removeQuestion}</legend>
          {choices.map((option) => (
            <label key={option}>
              <input
                type="radio"
                name={name}
                checked={choice === option}
                onChange={() => setChoice(option)}
              />
              {choiceTexts[option]}
            </label>
          ))}
        </fieldset>
        <DialogFooter
          error={error}
          pending={mutation.isPending}
          action={T.removeConfirm}
          onCancel={onClose}
        />
      </form>
    </Dialog>
  );
}
