import { TEXT_BUNDLES, formatQuotaBytes } from '@tessera/contract';
import type { AdminUser, QuotaDefaults } from '@tessera/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { FormEvent } from 'react';
import { Dialog } from '../../components/gallery/dialog';
import { saveQuotaDefaults, saveUserQuotas } from '../../lib/api/quotas';
import { DialogFooter } from '../../components/dialog-footer';
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

/** A save that shows a local check's text or the server's refusal in the dialog. */
function useQuotaSave<V, A>(save: (value: V) => Promise<A>, done: (answer: A) => void) {
  const [error, setError] = useState<string | null>(null);
  const mutation = useMutation({
    mutationFn: save,
    onMutate: () => setError(null),
    onSuccess: done,
    onError: (failure) => setError(failure.message),
  });
  return { mutation, error, setError };
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
  const { mutation, error, setError } = useQuotaSave(saveQuotaDefaults, () => {
    void queryClient.invalidateQueries({ queryKey: QUOTA_DEFAULTS_QUERY_KEY });
    report.setError(null);
    report.setNotice(T.defaultsSaved);
    report.setDialog(null);
  });

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (mutation.isPending) return;
    const parsed = parseQuotaDefaults(fields);
    if (parsed.ok) mutation.mutate(parsed.value);
    else setError(parsed.error);
  }

  return (
    <Dialog title={T.defaultQuotas} onClose={onClose} className="admin-dialog">
      <form className="admin-form" onSubmit={submit} noValidate>
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
  const { mutation, error, setError } = useQuotaSave(
    (quotas: AdminUser['quotas']) => saveUserQuotas(user.username, quotas),
    (changed) => {
      showChangedUser(queryClient, changed);
      report.setError(null);
      report.setNotice(T.quotasSaved(user.username));
      report.setDialog(null);
    },
  );

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (mutation.isPending) return;
    const parsed = parseUserQuotas(fields);
    if (parsed.ok) mutation.mutate(parsed.value);
    else setError(parsed.error);
  }

  const storage =
    defaults.storageBytes === null
      ? T.noLimit
      : formatQuotaBytes(defaults.storageBytes, currentLocale());
  return (
    <Dialog title={T.userQuotasTitle(user.username)} onClose={onClose} className="admin-dialog">
      <form className="admin-form" onSubmit={submit} noValidate>
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
