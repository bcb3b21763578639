import { TEXT_BUNDLES, formatAdminDate, formatCount, formatQuotaBytes } from '@tessera/contract';
import type { AdminUser, QuotaDefaults } from '@tessera/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { fetchAdminUsers } from '../../lib/api/admin';
import { fetchQuotaDefaults } from '../../lib/api/quotas';
import { AdminTabs } from './admin-tabs';
import { CreateUserDialog, PasswordShownDialog, ResetPasswordDialog } from './password-dialogs';
import { DefaultQuotasDialog, UserQuotasDialog } from './quota-dialogs';
import { RemoveUserDialog } from './remove-user-dialog';
import { TakeOverDialog } from './take-over-dialog';
import { UsageGlance, ADMIN_USAGE_QUERY_KEY } from './usage-glance';
import { UserRowActions } from './user-row-actions';
import { ADMIN_USERS_QUERY_KEY, QUOTA_DEFAULTS_QUERY_KEY } from './users-query';
import type { Report, UserDialog } from './users-query';
import { currentLocale, currentTexts, useTexts } from '../../lib/i18n';

/**
 * Route `/admin/users` (issue 29, part 2): every user with their use, and the admin's actions on
 * them. A refusal of the API shows its contract text above the table.
 */
export function AdminUsersScreen() {
  const T = useTexts(TEXT_BUNDLES.admin);
  const users = useQuery({ queryKey: ADMIN_USERS_QUERY_KEY, queryFn: fetchAdminUsers });
  const queryClient = useQueryClient();
  const defaults = useQuery({ queryKey: QUOTA_DEFAULTS_QUERY_KEY, queryFn: fetchQuotaDefaults });
  const [dialog, setDialog] = useState<UserDialog | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const closeDialog = () => setDialog(null);
  const report = { setError, setNotice, setDialog };

  return (
    <section className="screen admin" aria-labelledby="admin-users-title">
      <AdminTabs />
      <header className="admin-header">
        <div>
          <h1 id="admin-users-title" className="screen-title">
            {T.usersTitle}
          </h1>
          <p className="screen-text">{T.usersIntro}</p>
        </div>
        <div className="admin-toolbar">
          <button
            type="button"
            className="button"
            disabled={users.isFetching}
            onClick={() => {
              void users.refetch();
              void queryClient.invalidateQueries({ queryKey: ADMIN_USAGE_QUERY_KEY });
            }}
          >
            {T.refresh}
          </button>
          <button
            type="button"
            className="button"
            disabled={!defaults.data}
            onClick={() => setDialog({ kind: 'defaults' })}
          >
            {T.defaultQuotas}
          </button>
          <button
            type="button"
            className="button button-primary"
            onClick={() => setDialog({ kind: 'create' })}
          >
            {T.createUser}
          </button>
        </div>
      </header>

      {error !== null && (
        <p className="alert" role="alert">
          {error}
        </p>
      )}
      {notice !== null && (
        <p className="admin-notice" role="status">
          {notice}
        </p>
      )}
      {users.isError && (
        <p className="alert" role="alert">
          {T.usersLoadError} {users.error.message}
        </p>
      )}
      <UsageGlance />
      {defaults.data && <p className="screen-text">{defaultsSummary(defaults.data)}</p>}
      {users.data && <UsersTable users={users.data} defaults={defaults.data} report={report} />}

      {dialog?.kind === 'create' && <CreateUserDialog onClose={closeDialog} report={report} />}
      {dialog?.kind === 'reset' && (
        <ResetPasswordDialog
          username={dialog.user.username}
          onClose={closeDialog}
          report={report}
        />
      )}
      {dialog?.kind === 'password' && (
        <PasswordShownDialog
          username={dialog.username}
          password={dialog.password}
          onClose={closeDialog}
        />
      )}
      {dialog?.kind === 'defaults' && defaults.data && (
        <DefaultQuotasDialog defaults={defaults.data} onClose={closeDialog} report={report} />
      )}
      {dialog?.kind === 'quotas' && defaults.data && (
        <UserQuotasDialog
          user={dialog.user}
          defaults={defaults.data}
          onClose={closeDialog}
          report={report}
        />
      )}
      {dialog?.kind === 'remove' && (
        <RemoveUserDialog user={dialog.user} onClose={closeDialog} report={report} />
      )}
      {dialog?.kind === 'take-over' && (
        <TakeOverDialog user={dialog.user} onClose={closeDialog} report={report} />
      )}
    </section>
  );
}

function defaultsSummary(defaults: QuotaDefaults): string {
  const T = currentTexts(TEXT_BUNDLES.admin);
  const storage =
    defaults.storageBytes === null
      ? T.noLimit
      : formatQuotaBytes(defaults.storageBytes, currentLocale());
  return T.defaultQuotasSummary(storage, defaults.queuedPreviews, defaults.queuedHd);
}

/** Used storage, and the quota that applies (the user's own, else the default), if any. */
function storageCell(user: AdminUser, defaults: QuotaDefaults | undefined): string {
  const T = currentTexts(TEXT_BUNDLES.admin);
  const quota = user.quotas.storageBytes ?? defaults?.storageBytes ?? null;
  return T.storageCell(
    formatQuotaBytes(user.storageBytes, currentLocale()),
    quota === null ? null : formatQuotaBytes(quota, currentLocale()),
  );
}

function UsersTable({
  users,
  defaults,
  report,
}: {
  users: AdminUser[];
  defaults: QuotaDefaults | undefined;
  report: Report;
}) {
  const T = useTexts(TEXT_BUNDLES.admin);
  const C = T.columns;
  return (
    <div className="admin-table-wrap">
      <table className="admin-table" aria-labelledby="admin-users-title">
        <thead>
          <tr>
            <th scope="col">{C.name}</th>
            <th scope="col">{C.role}</th>
            <th scope="col">{C.created}</th>
            <th scope="col">{C.lastSeen}</th>
            <th scope="col" className="is-number">
              {C.images}
            </th>
            <th scope="col" className="is-number">
              {C.storage}
            </th>
            <th scope="col" className="is-number">
              {C.queue}
            </th>
            <th scope="col">{C.actions}</th>
          </tr>
        </thead>
        <tbody>
          {users.map((user) => (
            <tr key={user.username} data-username={user.username}>
              <th scope="row">
                {user.username}
                {user.retiredAt !== null ? (
                  <span className="admin-badge">{T.retiredBadge}</span>
                ) : (
                  user.disabledAt !== null && <span className="admin-badge">{T.disabledBadge}</span>
                )}
              </th>
              <td>{T.roles[user.role]}</td>
              <td>{formatAdminDate(user.createdAt, undefined, currentLocale())}</td>
              <td>
                {user.lastSeenAt === null
                  ? T.never
                  : formatAdminDate(user.lastSeenAt, undefined, currentLocale())}
              </td>
              <td className="is-number">{T.imagesCell(user.ldImages, user.hdImages)}</td>
              <td className="is-number">{storageCell(user, defaults)}</td>
              <td className="is-number">{formatCount(user.queuedJobs, currentLocale())}</td>
              <td>
                <UserRowActions user={user} report={report} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
