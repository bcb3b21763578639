import { formatAdminDate, formatStorage, TEXT_BUNDLES } from '@tessera/contract';
import type { AdminRetention } from '@tessera/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Dialog } from '../../components/gallery/dialog';
import { fetchRetention, runRetention } from '../../lib/api/admin';
import { useLocale, useTexts } from '../../lib/i18n';
import { AdminTabs } from './admin-tabs';
import { DialogFooter } from '../../components/dialog-footer';
import { useDialogAction } from '../../components/use-dialog-action';
import { readUsersAgain } from './users-query';

const RETENTION_QUERY = ['admin', 'retention'] as const;

/**
 * Route `/admin/retention` (issue 29, part 4): the HD retention policy, its dry run — what a run
 * now removes and the space it frees — a run now, and the daily runs.
 */
export function AdminRetentionScreen() {
  const T = useTexts(TEXT_BUNDLES.retention);
  const retention = useQuery({ queryKey: RETENTION_QUERY, queryFn: fetchRetention });
  const [confirming, setConfirming] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const data = retention.data;

  return (
    <section className="screen admin" aria-labelledby="admin-retention-title">
      <AdminTabs />
      <header className="admin-header">
        <div>
          <h1 id="admin-retention-title" className="screen-title">
            {T.title}
          </h1>
          <p className="screen-text">{T.intro}</p>
        </div>
      </header>
      {notice !== null && (
        <p className="admin-notice" role="status">
          {notice}
        </p>
      )}
      {retention.isError && (
        <p className="alert" role="alert">
          {T.loadError} {retention.error.message}
        </p>
      )}
      {data && (
        <>
          <p className="screen-text">{data.days === 0 ? T.off : T.policy(data.days)}</p>
          {data.days > 0 && <DryRun retention={data} onRun={() => setConfirming(true)} />}
          <DailyRuns runs={data.runs} />
        </>
      )}
      {confirming && data && (
        <RunNowDialog
          retention={data}
          onClose={() => setConfirming(false)}
          onDone={(text) => {
            setNotice(text);
            setConfirming(false);
          }}
        />
      )}
    </section>
  );
}

function DryRun({ retention, onRun }: { retention: AdminRetention; onRun: () => void }) {
  const T = useTexts(TEXT_BUNDLES.retention);
  const locale = useLocale();
  const { items, bytes } = retention;
  return (
    <section aria-labelledby="retention-dry-run">
      <h2 id="retention-dry-run" className="admin-subtitle">
        {T.dryRunTitle}
      </h2>
      {items.length === 0 ? (
        <p className="screen-text">{T.nothingToRemove}</p>
      ) : (
        <>
          <p className="screen-text">{T.dryRunSummary(items.length, bytes)}</p>
          <div className="admin-table-wrap">
            <table className="admin-table">
              <thead>
                <tr>
                  <th scope="col">{T.columns.owner}</th>
                  <th scope="col">{T.columns.file}</th>
                  <th scope="col">{T.columns.size}</th>
                  <th scope="col">{T.columns.created}</th>
                </tr>
              </thead>
              <tbody>
                {items.map((item) => (
                  <tr key={`${item.owner}/${item.filename}`}>
                    <td>{item.owner}</td>
                    <td>{item.filename}</td>
                    <td>{formatStorage(item.bytes, locale)}</td>
                    <td>{formatAdminDate(item.createdAt, undefined, locale)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <p className="screen-text">{T.sizeNote}</p>
          <button type="button" className="button button-danger" onClick={onRun}>
            {T.runNow}
          </button>
        </>
      )}
    </section>
  );
}

function DailyRuns({ runs }: { runs: AdminRetention['runs'] }) {
  const T = useTexts(TEXT_BUNDLES.retention);
  const locale = useLocale();
  return (
    <section aria-labelledby="retention-runs">
      <h2 id="retention-runs" className="admin-subtitle">
        {T.runsTitle}
      </h2>
      {runs.length === 0 ? (
        <p className="screen-text">{T.noRuns}</p>
      ) : (
        <div className="admin-table-wrap">
          <table className="admin-table">
            <thead>
              <tr>
                <th scope="col">{T.runsColumns.day}</th>
                <th scope="col">{T.runsColumns.started}</th>
                <th scope="col">{T.runsColumns.finished}</th>
                <th scope="col">{T.runsColumns.removed}</th>
                <th scope="col">{T.runsColumns.freed}</th>
              </tr>
            </thead>
            <tbody>
              {runs.map((run) => (
                <tr key={run.day}>
                  <td>{run.day}</td>
                  <td>{formatAdminDate(run.startedAt, undefined, locale)}</td>
                  <td>
                    {run.finishedAt === null
                      ? T.unfinished
                      : formatAdminDate(run.finishedAt, undefined, locale)}
                  </td>
                  <td>{run.removed ?? '—'}</td>
                  <td>{run.bytes === null ? '—' : formatStorage(run.bytes, locale)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/** "Run now" names what goes and asks once; the answer says what went. */
function RunNowDialog({
  retention,
  onClose,
  onDone,
}: {
  retention: AdminRetention;
  onClose: () => void;
  onDone: (notice: string) => void;
}) {
  const T = useTexts(TEXT_BUNDLES.retention);
  const queryClient = useQueryClient();
  const { mutation, error, submit } = useDialogAction(runRetention, (done) => {
    void queryClient.invalidateQueries({ queryKey: RETENTION_QUERY });
    readUsersAgain(queryClient);
    onDone(T.ran(done.items.length, done.bytes));
  });

  return (
    <Dialog title={T.runTitle} onClose={onClose} className="admin-dialog">
      <form className="admin-form" onSubmit={submit()}>
        <p className="admin-notice">{T.runQuestion(retention.items.length, retention.bytes)}</p>
        <DialogFooter
          error={error}
          pending={mutation.isPending}
          action={T.runConfirm}
          onCancel={onClose}
        />
      </form>
    </Dialog>
  );
}
