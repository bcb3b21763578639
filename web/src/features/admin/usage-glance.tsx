import { formatUsageCount, formatUsageDay, TEXT_BUNDLES } from '@tessera/contract';
import type { AdminUsage, Locale, USAGE_TEXTS } from '@tessera/contract';
import { useQuery } from '@tanstack/react-query';
import { useMemo, type ReactNode } from 'react';
import { fetchAdminUsage } from '../../lib/api/admin';
import { useLocale, useTexts } from '../../lib/i18n';
import { BarChart } from './bar-chart';
import { engineName, usageCharts } from './usage-charts';

export const ADMIN_USAGE_QUERY_KEY = ['admin', 'usage'] as const;

/**
 * Usage at a glance (issue 29, part 6), at the top of the users screen: images made per day and
 * per user over the last 30 days, the queue now and the engines' state, as small charts. Each
 * chart's figures are also a table, for screen readers (visually hidden).
 */
export function UsageGlance() {
  const usage = useQuery({ queryKey: ADMIN_USAGE_QUERY_KEY, queryFn: fetchAdminUsage });
  const T = useTexts(TEXT_BUNDLES.usage);
  const locale = useLocale();
  const charts = useMemo(
    () => usage.data && usageCharts(usage.data, T, locale),
    [usage.data, T, locale],
  );

  return (
    <section className="usage" aria-labelledby="usage-title">
      <h2 id="usage-title" className="usage-title">
        {T.title}
      </h2>
      <p className="screen-text">{T.intro}</p>
      {usage.isError && (
        <p className="alert" role="alert">
          {T.loadError} {usage.error.message}
        </p>
      )}
      {usage.data && charts && (
        <div className="usage-grid">
          <UsageFigure id="usage-images" title={T.imagesTitle}>
            <BarChart data={charts.images} label={T.imagesTitle} />
            <FiguresTable
              title={T.imagesTitle}
              head={[T.day, T.ld, T.hd]}
              rows={usage.data.days.map((d) => [
                formatUsageDay(d.day, locale),
                d.ldImages,
                d.hdImages,
              ])}
            />
          </UsageFigure>
          <UsageFigure id="usage-users" title={T.usersTitle}>
            <BarChart data={charts.users} label={T.usersTitle} />
            <FiguresTable title={T.usersTitle} {...userFigures(usage.data, T, locale)} />
          </UsageFigure>
          <UsageFigure id="usage-queue" title={T.queueTitle}>
            <BarChart data={charts.queue} label={T.queueTitle} />
            <FiguresTable
              title={T.queueTitle}
              head={[T.kind, T.queued, T.running]}
              rows={usage.data.queue.map((q) => [T.kinds[q.kind], q.queued, q.running])}
            />
          </UsageFigure>
          <UsageFigure id="usage-engines" title={T.enginesTitle}>
            <BarChart data={charts.engines} label={T.enginesTitle} />
            <ul className="usage-engines" aria-label={T.enginesTitle}>
              {usage.data.engines.map((engine, index) => (
                <li key={`${engine.label ?? engine.engine}-${index}`}>
                  <span className={`usage-state-dot is-${engine.state}`} aria-hidden="true" />
                  {engineName(engine, T)}: {T.states[engine.state]}
                </li>
              ))}
            </ul>
          </UsageFigure>
        </div>
      )}
    </section>
  );
}

function UsageFigure({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <figure className="usage-figure" aria-labelledby={id}>
      <figcaption id={id} className="usage-caption">
        {title}
      </figcaption>
      {children}
    </figure>
  );
}

/** A chart's figures as a table: hidden from sight, read by screen readers (and the tests). */
function FiguresTable({
  title,
  head,
  rows,
}: {
  title: string;
  head: string[];
  rows: (string | number)[][];
}) {
  const locale = useLocale();
  return (
    <table className="usage-figures">
      <caption>{title}</caption>
      <thead>
        <tr>
          {head.map((cell) => (
            <th key={cell} scope="col">
              {cell}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map(([first, ...rest]) => (
          <tr key={String(first)}>
            <th scope="row">{first}</th>
            {rest.map((cell, i) => (
              <td key={i}>{typeof cell === 'number' ? formatUsageCount(cell, locale) : cell}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function userFigures(
  usage: AdminUsage,
  T: typeof USAGE_TEXTS,
  locale: Locale,
): { head: string[]; rows: (string | number)[][] } {
  return {
    head: [T.day, ...usage.topUsers, T.others],
    rows: usage.days.map((d) => [formatUsageDay(d.day, locale), ...d.byUser, d.others]),
  };
}
