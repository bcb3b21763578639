import { TEXT_BUNDLES, formatQuotaBytes } from '@tessera/contract';
import type { AdminUser, QuotaDefaults } from '@tessera/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Dialog } from '../../components/gallery/dialog';
import { saveQuotaDefaults, saveUserQuotas } from '../../lib/api/quotas';
import { DialogFooter } from '../../components/dialog-footer';
import { useDialogAction } from '../../components/use-dialog-action';
import { parseQuotaDefaults, parseUserQuotas, quotaFields } from './quota-form';
import type { QuotaFields } from './quota-form';
import { QUOTA_DEFAULTS_QUERY_KEY, showChangedUser } from './users-query';
import type { Report } from './users-query';
import { currentLocale, useTexts } from '../../lib/i18n';

/** The three fields, each with its hint: what an empty field means. */
function QuotaInputs({
  fields,
  onChange,
  hints,
}: {
  fields: QuotaFields;
  onChange: (fields: QuotaFields) => void;
  hints: Record<keyof QuotaFields, string>;
}) {
  const T = useTexts(TEXT_BUNDLES.admin);
  const id = useId();
  const inputs: [keyof QuotaFields, string, 'decimal' | 'numeric'][] = [
    ['storageGb', T.quotaStorageLabel, 'decimal'],
    ['queuedPreviews', T.quotaPreviewsLabel, 'numeric'],
    ['queuedHd', T.quotaHdLabel, 'numeric'],
  ];
  return (
    <>
      {inputs.map(([name, label, mode]) => (
        <div className="field" key={name}>
          <label className="field-label" htmlFor={`${id}-${name}`}>
            {label}
          </label>
          <input
            id={`${id}-${name}`}
            className="field-input"
            inputMode={mode}
            autoComplete="off"
            value={fields[name]}
            aria-describedby={`${id}-${name}-hint`}
            onChange={(event) => onChange({ ...fields, [name]: event.target.value })}
          />
          <span id={`${id}-${name}-hint`} className="admin-hint">
            {hints[name]}
          </span>
        </div>
      ))}
    </>
  );
}

export function DefaultQuotasDialog({
  defaults,
  onClose,
  report,
}: {
  defaults: QuotaDefaults;
  onClose: () => void;
  report: Report;
}) {
  const T = useTexts(TEXT_BUNDLES.admin);
  const queryClient = useQueryClient();
  const [fields, setFields] = useState(() => quotaFields(defaults));
  const { mutation, error, submit } = useDialogAction(saveQuotaDefaults, () => {
    void queryClient.invalidateQueries({ queryKey: QUOTA_DEFAULTS_QUERY_KEY });
    report.setError(null);
    report.setNotice(T.defaultsSaved);
    report.setDialog(null);
  });

  return (
    <Dialog title={T.defaultQuotas} onClose={onClose} className="admin-dialog">
      <form className="admin-form" onSubmit={submit(() => parseQuotaDefaults(fields))} noValidate>
        <p>{T.defaultQuotasNote}</p>
        <QuotaInputs
          fields={fields}
          onChange={setFields}
          hints={{ storageGb: T.noLimit, queuedPreviews: '', queuedHd: '' }}
        />
        <DialogFooter
          error={error}
          pending={mutation.isPending}
          action={T.save}
          onCancel={onClose}
        />
      </form>
    </Dialog>
  );
}

export function UserQuotasDialog({
  user,
  defaults,
  onClose,
  report,
}: {
  user: AdminUser;
  defaults: QuotaDefaults;
  onClose: () => void;
  report: Report;
}) {
  const T = useTexts(TEXT_BUNDLES.admin);
  const queryClient = useQueryClient();
  const [fields, setFields] = useState(() => quotaFields(user.quotas));
  const { mutation, error, submit } = useDialogAction(
    (quotas: AdminUser['quotas']) => saveUserQuotas(user.username, quotas),
    (changed) => {
      showChangedUser(queryClient, changed);
      report.setError(null);
      report.setNotice(T.quotasSaved(user.username));
      report.setDialog(null);
    },
  );

  const storage =
    defaults.storageBytes === null
      ? T.noLimit
      : formatQuotaBytes(defaults.storageBytes, currentLocale());
  return (
    <Dialog title={T.userQuotasTitle(user.username)} onClose={onClose} className="admin-dialog">
      <form className="admin-form" onSubmit={submit(() => parseUserQuotas(fields))} noValidate>
        <p>{T.userQuotasNote}</p>
        <QuotaInputs
          fields={fields}
          onChange={setFields}
          hints={{
            storageGb: T.quotaDefaultHint(storage),
            queuedPreviews: T.quotaDefaultHint(String(defaults.queuedPreviews)),
            queuedHd: T.quotaDefaultHint(String(defaults.queuedHd)),
          }}
        />
        <DialogFooter
          error={error}
          pending={mutation.isPending}
          action={T.save}
          onCancel={onClose}
        />
      </form>
    </Dialog>
  );
}
