import { TEXT_BUNDLES, AUDIT_ACTIONS, formatAdminDate } from '@tessera/contract';
import type { AuditAction } from '@tessera/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { FormEvent } from 'react';
import { fetchAuditPage } from '../../lib/api/admin';
import { AdminTabs } from './admin-tabs';
import { auditQueryOf, formatAuditDetails, NO_AUDIT_FILTERS } from './audit-filters';
import type { AuditFilters } from './audit-filters';
import { currentLocale, useTexts } from '../../lib/i18n';

/**
 * Route `/admin/audit` (issue 29, part 5): the audit trail, newest first, filtered by action,
 * user, target and days, a page at a time (the server pages by id: `before`).
 */
export function AdminAuditScreen() {
  const T = useTexts(TEXT_BUNDLES.admin);
  const [draft, setDraft] = useState<AuditFilters>(NO_AUDIT_FILTERS);
  const [filters, setFilters] = useState<AuditFilters>(NO_AUDIT_FILTERS);
  // The `before` of each page shown after the first: the last one is the page on screen.
  const [pages, setPages] = useState<number[]>([]);
  const query = auditQueryOf(filters, pages.at(-1));
  const audit = useQuery({
    queryKey: ['admin', 'audit', query],
    queryFn: () => fetchAuditPage(query),
    placeholderData: keepPreviousData,
  });

  function apply(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFilters(draft);
    setPages([]);
  }

  function clear() {
    setDraft(NO_AUDIT_FILTERS);
    setFilters(NO_AUDIT_FILTERS);
    setPages([]);
  }

  const nextBefore = audit.data?.nextBefore;
  return (
    <section className="screen admin" aria-labelledby="admin-audit-title">
      <AdminTabs />
      <header className="admin-header">
        <div>
          <h1 id="admin-audit-title" className="screen-title">
            {T.auditTitle}
          </h1>
          <p className="screen-text">{T.auditIntro}</p>
        </div>
        <div className="admin-toolbar">
          <button
            type="button"
            className="button"
            disabled={audit.isFetching}
            onClick={() => void audit.refetch()}
          >
            {T.refresh}
          </button>
        </div>
      </header>

      <AuditFilterForm draft={draft} onDraft={setDraft} onApply={apply} onClear={clear} />

      {audit.isError && (
        <p className="alert" role="alert">
          {T.auditLoadError} {audit.error.message}
        </p>
      )}
      {audit.data &&
        (audit.data.entries.length === 0 ? (
          <p className="screen-text">{T.auditEmpty}</p>
        ) : (
          <div className="admin-table-wrap">
            <table className="admin-table" aria-labelledby="admin-audit-title">
              <thead>
                <tr>
                  <th scope="col">{T.auditColumns.at}</th>
                  <th scope="col">{T.auditColumns.actor}</th>
                  <th scope="col">{T.auditColumns.action}</th>
                  <th scope="col">{T.auditColumns.target}</th>
                  <th scope="col">{T.auditColumns.address}</th>
                  <th scope="col">{T.auditColumns.details}</th>
                </tr>
              </thead>
              <tbody>
                {audit.data.entries.map((entry) => (
                  <tr key={entry.id} data-action={entry.action}>
                    <td>{formatAdminDate(entry.at, undefined, currentLocale())}</td>
                    <td>{entry.actor ?? T.noDetails}</td>
                    <td>{T.actions[entry.action]}</td>
                    <td>{entry.target ?? T.noDetails}</td>
                    <td>{entry.address ?? T.noDetails}</td>
                    <td className="admin-details">
                      {formatAuditDetails(entry.details) || T.noDetails}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ))}

      <div className="admin-toolbar">
        <span className="screen-text">{T.auditPage(pages.length + 1)}</span>
        {pages.length > 0 && (
          <button type="button" className="button" onClick={() => setPages([])}>
            {T.newestEntries}
          </button>
        )}
        {nextBefore !== undefined && (
          <button
            type="button"
            className="button"
            disabled={audit.isFetching}
            onClick={() => setPages([...pages, nextBefore])}
          >
            {T.olderEntries}
          </button>
        )}
      </div>
    </section>
  );
}

function AuditFilterForm({
  draft,
  onDraft,
  onApply,
  onClear,
}: {
  draft: AuditFilters;
  onDraft: (filters: AuditFilters) => void;
  onApply: (event: FormEvent<HTMLFormElement>) => void;
  onClear: () => void;
}) {
  const T = useTexts(TEXT_BUNDLES.admin);
  const id = useId();
  const set = (change: Partial<AuditFilters>) => onDraft({ ...draft, ...change });
  return (
    <form className="admin-filters" onSubmit={onApply}>
      <div className="field">
        <label className="field-label" htmlFor={`${id}-action`}>
          {T.filterAction}
        </label>
        <select
          id={`${id}-action`}
          className="field-input"
          value={draft.action}
          onChange={(event) => set({ action: event.target.value as AuditAction | '' })}
        >
          <option value="">{T.filterAnyAction}</option>
          {AUDIT_ACTIONS.map((action) => (
            <option key={action} value={action}>
              {T.actions[action]}
            </option>
          ))}
        </select>
      </div>
      <TextFilter
        id={`${id}-actor`}
        label={T.filterUser}
        value={draft.actor}
        onChange={(actor) => set({ actor })}
      />
      <TextFilter
        id={`${id}-target`}
        label={T.filterTarget}
        value={draft.target}
        onChange={(target) => set({ target })}
      />
      <TextFilter
        id={`${id}-from`}
        type="date"
        label={T.filterFrom}
        value={draft.from}
        onChange={(from) => set({ from })}
      />
      <TextFilter
        id={`${id}-to`}
        type="date"
        label={T.filterTo}
        value={draft.to}
        onChange={(to) => set({ to })}
      />
      <div className="admin-toolbar">
        <button type="submit" className="button button-primary">
          {T.applyFilters}
        </button>
        <button type="button" className="button" onClick={onClear}>
          {T.clearFilters}
        </button>
      </div>
    </form>
  );
}

function TextFilter({
  id,
  label,
  value,
  onChange,
  type = 'text',
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  type?: 'text' | 'date';
}) {
  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      <input
        id={id}
        className="field-input"
        type={type}
        value={value}
        onChange={(event) => onChange(event.target.value)}
      />
    </div>
  );
}
