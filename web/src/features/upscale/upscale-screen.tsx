import {
  TEXT_BUNDLES,
  formatImageDate,
  hdImageUrl,
  ldThumbnailUrl,
  SCREEN_PATHS,
} from '@tessera/contract';
import type { HdJob, HdJobsResponse } from '@tessera/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { cancelHdJob, fetchHdQueue, moveHdJobToTop, setHdQueuePaused } from '../../lib/api/hd';
import { useHdStatus, useMessaging } from '../../lib/messaging';
import { reportHdJobCancelled, useHdJobs } from '../hd';
import { HD_JOB_GROUPS, groupJobs, markJobCancelled, patchJobs } from './hd-queue';
import type { HdJobGroupName } from './hd-queue';
import { serverText, useLocale, useTexts } from '../../lib/i18n';
import './upscale-screen.css';

/**
 * Route `/upscale` (beyond the spec, which leaves it open): the user's HD jobs by state, kept live
 * from the HD status stream. A job still waiting can be cancelled or moved to the top of the
 * user's queue, and the whole queue paused and resumed (issue 13, feature 13).
 */
export function UpscaleScreen() {
  const texts = useTexts(TEXT_BUNDLES.upscale);
  const TEXTS = useTexts(TEXT_BUNDLES.texts);
  const galleryTexts = useTexts(TEXT_BUNDLES.gallery);
  const client = useMessaging();
  const queryClient = useQueryClient();
  const queryKey = ['hd-jobs', client?.user ?? null];
  const jobsQuery = useQuery({ queryKey, queryFn: fetchHdQueue });
  const [actionError, setActionError] = useState<string | null>(null);
  // Keeps the shared HD record (and its 3 s poll) alive while the queue is on screen.
  useHdJobs();

  const patchQueue = (change: (jobs: HdJob[]) => HdJob[]) =>
    queryClient.setQueryData<HdJobsResponse>(
      queryKey,
      (queue) => queue && { ...queue, jobs: change(queue.jobs) },
    );

  useHdStatus((event) => {
    if (event.kind !== 'status') return;
    const { message } = event;
    const queue = queryClient.getQueryData<HdJobsResponse>(queryKey);
    const patched = queue && patchJobs(queue.jobs, message);
    if (patched) patchQueue(() => patched);
    const placeUnknown = patched?.some(
      (job) => job.id === message.id && job.status === 'queued' && job.position === undefined,
    );
    // A new order, or a job back in the queue for a retry: the server tells where it stands.
    if (!patched || placeUnknown) void queryClient.invalidateQueries({ queryKey });
  });

  /** A queue command failed: say so, and show where the queue really is now. */
  const failed = (text: string, error: Error) => {
    setActionError(`${text}: ${error.message}`);
    void queryClient.invalidateQueries({ queryKey });
  };

  const cancel = useMutation({
    mutationFn: (job: HdJob) => cancelHdJob(job.id),
    onMutate: () => setActionError(null),
    onSuccess: (_answer, job) => {
      patchQueue((jobs) => markJobCancelled(jobs, job.id));
      reportHdJobCancelled(job.id);
    },
    // It has most likely started meanwhile.
    onError: (error, job) => failed(texts.cancelFailed(job.image, job.size), error),
  });

  // Both answer with the queue as the server now has it, in its new order.
  const moveToTop = useMutation({
    mutationFn: (job: HdJob) => moveHdJobToTop(job.id),
    onMutate: () => setActionError(null),
    onSuccess: (queue) => queryClient.setQueryData(queryKey, queue),
    onError: (error, job) => failed(texts.moveFailed(job.image, job.size), error),
  });
  const pause = useMutation({
    mutationFn: setHdQueuePaused,
    onMutate: () => setActionError(null),
    onSuccess: (queue) => queryClient.setQueryData(queryKey, queue),
    onError: (error, paused) => failed(paused ? texts.pauseFailed : texts.resumeFailed, error),
  });
  const paused = jobsQuery.data?.paused ?? false;

  return (
    <section className="screen upscale" aria-labelledby="upscale-title">
      <header className="upscale-header">
        <div className="upscale-heading">
          <h1 id="upscale-title" className="screen-title">
            {texts.title}
          </h1>
          <p className="screen-text">{texts.lead}</p>
        </div>
        <div className="upscale-actions">
          <button
            type="button"
            className="button"
            disabled={jobsQuery.isFetching}
            onClick={() => void jobsQuery.refetch()}
          >
            {jobsQuery.isFetching ? TEXTS.refreshing : galleryTexts.refresh}
          </button>
          {jobsQuery.isSuccess && (
            <button
              type="button"
              className="button"
              disabled={pause.isPending}
              onClick={() => pause.mutate(!paused)}
            >
              {paused ? texts.resume : texts.pause}
            </button>
          )}
        </div>
      </header>

      {paused && (
        <p className="upscale-paused" role="status" aria-label={texts.queueState}>
          {texts.paused}
        </p>
      )}

      {actionError !== null && (
        <div className="alert upscale-alert" role="alert">
          <p>{actionError}</p>
          <button
            type="button"
            className="upscale-alert-close"
            aria-label={texts.dismiss}
            onClick={() => setActionError(null)}
          >
            ×
          </button>
        </div>
      )}

      {jobsQuery.isPending ? (
        <div className="upscale-state">
          <div className="spinner" aria-hidden="true" />
          <p>{texts.loading}</p>
        </div>
      ) : jobsQuery.isError ? (
        <div className="upscale-state" role="alert">
          <p>{texts.loadFailed}</p>
          <button type="button" className="button" onClick={() => void jobsQuery.refetch()}>
            {texts.tryAgain}
          </button>
        </div>
      ) : jobsQuery.data.jobs.length === 0 ? (
        <div className="upscale-state">
          <p>{texts.empty}</p>
          <p className="screen-text">
            {texts.emptyHint.before} <Link to={SCREEN_PATHS.dashboard}>{texts.emptyHint.link}</Link>{' '}
            {texts.emptyHint.after}
          </p>
        </div>
      ) : (
        <JobGroups
          jobs={jobsQuery.data.jobs}
          actions={{
            cancelling: cancel.isPending ? cancel.variables.id : null,
            moving: moveToTop.isPending ? moveToTop.variables.id : null,
            onCancel: (job) => cancel.mutate(job),
            onMoveToTop: (job) => moveToTop.mutate(job),
          }}
        />
      )}
    </section>
  );
}

/** What a queued job's row can do, and which job a command is on its way for. */
interface QueuedJobActions {
  cancelling: string | null;
  moving: string | null;
  onCancel: (job: HdJob) => void;
  onMoveToTop: (job: HdJob) => void;
}

function JobGroups({ jobs, actions }: { jobs: readonly HdJob[]; actions: QueuedJobActions }) {
  const texts = useTexts(TEXT_BUNDLES.upscale);
  const groups = groupJobs(jobs);
  return (
    <div className="upscale-groups">
      {HD_JOB_GROUPS.filter((group) => groups[group.name].length > 0).map((group) => (
        <JobGroup
          key={group.name}
          name={group.name}
          title={texts.groups[group.name]}
          jobs={groups[group.name]}
          actions={actions}
        />
      ))}
    </div>
  );
}

function JobGroup({
  name,
  title,
  jobs,
  actions,
}: {
  name: HdJobGroupName;
  title: string;
  jobs: readonly HdJob[];
  actions: QueuedJobActions;
}) {
  const texts = useTexts(TEXT_BUNDLES.upscale);
  const locale = useLocale();
  const titleId = useId();
  return (
    <section className={`upscale-group upscale-group-${name}`} aria-labelledby={titleId}>
      <h2 className="upscale-group-title">
        <span id={titleId}>{title}</span>
        <span className="upscale-count" aria-label={texts.jobCount(jobs.length)}>
          {jobs.length}
        </span>
      </h2>
      <table className="upscale-table">
        <thead>
          <tr>
            <th scope="col">{texts.columns.preview}</th>
            <th scope="col">{texts.columns.image}</th>
            <th scope="col">{texts.columns.size}</th>
            <th scope="col">{texts.columns.ordered}</th>
            <th scope="col">{texts.columns.status}</th>
          </tr>
        </thead>
        <tbody>
          {jobs.map((job, index) => (
            <tr key={job.id} data-status={job.status}>
              <td>
                <img
                  className="upscale-thumbnail"
                  src={ldThumbnailUrl(job.image)}
                  alt=""
                  width="48"
                  height="48"
                  loading="lazy"
                />
              </td>
              <th scope="row" className="upscale-image">
                {job.image}
              </th>
              <td>{job.size}</td>
              <td>{formatImageDate({ created_at: job.created_at }, undefined, locale)}</td>
              <td>
                <JobStatus job={job} first={index === 0} actions={actions} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function JobStatus({
  job,
  first,
  actions,
}: {
  job: HdJob;
  /** First of its group: a queued one is next already. */
  first: boolean;
  actions: QueuedJobActions;
}) {
  const TEXTS = useTexts(TEXT_BUNDLES.texts);
  const texts = useTexts(TEXT_BUNDLES.upscale);
  switch (job.status) {
    case 'in_progress': {
      const percent = Math.round(job.percent);
      return (
        <div className="upscale-progress">
          <progress max={100} value={percent} aria-label={texts.progressOf(job.image)} />
          <span>{percent}%</span>
        </div>
      );
    }
    case 'queued': {
      const cancelling = actions.cancelling === job.id;
      const moving = actions.moving === job.id;
      return (
        <div className="upscale-queued">
          <span>
            {job.error === undefined ? texts.waiting : texts.waitingRetry}
            {first && ` · ${texts.next}`}
          </span>
          {!first && (
            <button
              type="button"
              className="button upscale-action"
              aria-label={texts.moveJob(job.image, job.size)}
              disabled={moving || cancelling}
              onClick={() => actions.onMoveToTop(job)}
            >
              {moving ? texts.moving : texts.moveToTop}
            </button>
          )}
          <button
            type="button"
            className="button upscale-action"
            aria-label={texts.cancelJob(job.image, job.size)}
            disabled={cancelling}
            onClick={() => actions.onCancel(job)}
          >
            {cancelling ? texts.cancelling : texts.cancel}
          </button>
        </div>
      );
    }
    case 'finished':
      return job.output_image === undefined ? (
        <span>{texts.finished}</span>
      ) : (
        <a className="upscale-download" href={hdImageUrl(job.output_image)} download>
          {TEXTS.downloadHdImage}
        </a>
      );
    case 'error':
      return (
        <span className="upscale-error">
          {job.error === undefined ? texts.failed : serverText(job.error)}
        </span>
      );
    case 'cancelled':
      return <span className="upscale-muted">{texts.cancelled}</span>;
  }
}
