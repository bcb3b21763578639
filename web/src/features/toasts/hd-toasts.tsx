import { ldThumbnailUrl, TEXT_BUNDLES } from '@tessera/contract';
import type { HdJob } from '@tessera/contract';
import { useEffect, useReducer } from 'react';
import { CrossIcon } from '../../components/icons';
import { useHdStatus, useMessaging } from '../../lib/messaging';
import type { HdStatusEvent } from '../../lib/messaging';
import { fetchHdJobs } from '../../lib/api/hd';
import { useTexts } from '../../lib/i18n';
import { useHdJobs } from '../hd';
import { INITIAL_TOAST_STATE, toastReducer } from './toast-state';
import { useClearTop } from './use-clear-top';
import './hd-toasts.css';

function log(event: HdStatusEvent): void {
  // SPEC §4: an HD error is logged (the server retries); the toast tells the person. A cancel
  // or a repeated order ends its id with a reason: no failure to log.
  if (
    event.kind === 'status' &&
    event.message.status === 'error' &&
    event.message.reason === undefined
  ) {
    console.error(
      `HD generation for ${event.message.image} failed:`,
      event.message.error ?? 'no reason given',
    );
  }
}

/** The ids of the jobs waiting, in the order they will run. */
function queuedIds(jobs: readonly HdJob[]): string[] {
  const place = (job: HdJob) => job.position ?? Number.MAX_SAFE_INTEGER;
  return jobs
    .filter((job) => job.status === 'queued')
    .sort((a, b) => place(a) - place(b))
    .map((job) => job.id);
}

/**
 * The HD status toast (SPEC §2, §4, §9; H6–H10): one at a time at the top right, never closing by
 * itself, closed by a click, its progress animation paused while the pointer rests on it.
 * Mounted once by the app layout, so it follows the person across screens.
 */
export function HdToasts() {
  const texts = useTexts(TEXT_BUNDLES.hdNotifications);
  const [state, dispatch] = useReducer(toastReducer, INITIAL_TOAST_STATE);
  // Mounted on every screen, the toast keeps the page's record of HD jobs (and its 3 s poll,
  // H11) alive between two openings of the details modal.
  useHdJobs();
  useHdStatus((event) => {
    log(event);
    dispatch({ type: 'event', event });
  });
  // The queue is learnt from the server on load (a reload, a sign-in): the stream tells only
  // what happens from now on, and the progress toast counts the jobs already waiting.
  const client = useMessaging();
  useEffect(() => {
    if (client === null) return;
    let current = true;
    fetchHdJobs().then(
      (jobs) => {
        if (current) dispatch({ type: 'queue-listed', ids: queuedIds(jobs) });
      },
      (error: unknown) => console.warn('Could not load the HD queue:', error),
    );
    return () => {
      current = false;
    };
  }, [client]);
  const { toast, paused } = state;
  const top = useClearTop(toast !== null);

  return (
    // The live region is always there, so screen readers hear each toast that appears in it.
    <div
      className="toast-region"
      style={{ top }}
      role="status"
      aria-live="polite"
      aria-label={texts.label}
    >
      {toast && (
        // One element while toasts follow each other: it fades in once, not at every percent.
        <div
          className={`toast toast-${toast.kind}`}
          data-kind={toast.kind}
          data-paused={paused}
          title={texts.clickToClose}
          onClick={() => dispatch({ type: 'dismiss' })}
          onMouseEnter={() => dispatch({ type: 'hover', paused: true })}
          onMouseLeave={() => dispatch({ type: 'hover', paused: false })}
        >
          {toast.image !== undefined && (
            <img
              className="toast-thumbnail"
              src={ldThumbnailUrl(toast.image)}
              alt=""
              width="48"
              height="48"
            />
          )}
          <p className="toast-text">{toast.text}</p>
          <button
            type="button"
            className="toast-close"
            aria-label={texts.close}
            onClick={(event) => {
              event.stopPropagation();
              dispatch({ type: 'dismiss' });
            }}
          >
            <CrossIcon size={16} />
          </button>
          {(toast.kind === 'in_progress' || toast.kind === 'queued') && (
            <span className="toast-activity" aria-hidden="true" />
          )}
        </div>
      )}
    </div>
  );
}
