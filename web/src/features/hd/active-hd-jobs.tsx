import { useHdJobs } from './hd-job-store';
import { activeJobCount } from './hd-job-state';

/**
 * How many of the user's HD jobs wait or run, as a badge (shown only when there are some),
 * kept live by the shared record of HD jobs.
 */
export function ActiveHdJobsBadge() {
  const count = activeJobCount(useHdJobs());
  if (count === 0) return null;
  const label = `${count} HD ${count === 1 ? 'job' : 'jobs'} running or queued`;
  return (
    <span className="nav-badge" role="status" aria-label="HD jobs running or queued" title={label}>
      {count > 99 ? '99+' : count}
    </span>
  );
}
