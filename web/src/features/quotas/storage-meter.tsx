import { storageWarning, TEXT_BUNDLES } from '@tessera/contract';
import type { StorageUsage } from '@tessera/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import { useLocation } from 'react-router';
import { fetchStorageUsage } from '../../lib/api/quotas';
import { useTexts } from '../../lib/i18n';
import { useHdJobs } from '../hd';

export const STORAGE_USAGE_QUERY_KEY = ['storage-usage'] as const;

/** Something stored or removed images: the meter reads the use again. */
export function storageChanged(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: STORAGE_USAGE_QUERY_KEY });
}

/** How many of the user's HD jobs have ended: each end may have stored an HD image. */
function useEndedHdJobs(): number {
  const { jobs } = useHdJobs();
  return Object.values(jobs).filter((job) => job.status === 'finished').length;
}

/** The share of the quota used, 0 to 100, for the bar. */
function percentOf(usage: StorageUsage & { quotaBytes: number }): number {
  if (usage.quotaBytes === 0) return 100;
  return Math.min(100, Math.round((usage.usedBytes / usage.quotaBytes) * 100));
}

/**
 * The user's storage in the sidebar (issue 29, part 3): used of the quota as a bar, a warning
 * from 90 %; without a quota, the use alone. Read again when the user moves to another screen
 * and when an HD job or a generation ends (events, not a timer).
 */
export function StorageMeter() {
  const T = useTexts(TEXT_BUNDLES.storage);
  const queryClient = useQueryClient();
  const usage = useQuery({ queryKey: STORAGE_USAGE_QUERY_KEY, queryFn: fetchStorageUsage });
  const { pathname } = useLocation();
  const ended = useEndedHdJobs();
  useEffect(() => storageChanged(queryClient), [queryClient, pathname, ended]);

  if (!usage.data) return null;
  const { usedBytes, quotaBytes } = usage.data;
  if (quotaBytes === null) {
    return (
      <div className="storage-meter" role="group" aria-label={T.label}>
        <span className="storage-meter-text">{T.usedOnly(usedBytes)}</span>
      </div>
    );
  }
  const warn = storageWarning(usage.data);
  const percent = percentOf({ usedBytes, quotaBytes });
  return (
    <div
      className={warn ? 'storage-meter is-warning' : 'storage-meter'}
      role="group"
      aria-label={T.label}
    >
      <div
        className="storage-meter-bar"
        role="meter"
        aria-label={T.label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={T.usedOfQuota(usedBytes, quotaBytes)}
      >
        <span style={{ width: `${percent}%` }} />
      </div>
      <span className="storage-meter-text">{T.usedOfQuota(usedBytes, quotaBytes)}</span>
      {warn && (
        <span className="storage-meter-warning" role="status">
          {T.warning}
        </span>
      )}
    </div>
  );
}
