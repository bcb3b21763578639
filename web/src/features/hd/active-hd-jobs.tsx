import { TEXT_BUNDLES } from '@tessera/contract';
import { useTexts } from '../../lib/i18n';
import { useHdJobs } from './hd-job-store';
import { activeJobCount } from './hd-job-state';

/**
 * How many of the user's HD jobs wait or run, as a badge (shown only when there are some),
 * kept live by the shared record of HD jobs.
 */
export function ActiveHdJobsBadge() {
  const T = useTexts(TEXT_BUNDLES.output);
  const count = activeJobCount(useHdJobs());
  if (count === 0) return null;
  return (
    <span
      className="nav-badge"
      role="status"
      aria-label={T.jobsBadge}
      title={T.jobsBadgeTitle(count)}
    >
      {count > 99 ? '99+' : count}
    </span>
  );
}
