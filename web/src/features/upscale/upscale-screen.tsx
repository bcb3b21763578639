import { TEXTS, formatImageDate } from '@tessera/contract';
import type { HdJob } from '@tessera/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { useHdStatus, useMessaging } from '../../lib/messaging';
import {
  cancelHdJob,
  fetchHdJobs,
  hdImageUrl,
  ldThumbnailUrl,
  reportHdJobCancelled,
  useHdJobs,
} from '../hd';
import { HD_JOB_GROUPS, groupJobs, markJobCancelled, patchJobs } from './hd-queue';
import type { HdJobGroupName } from './hd-queue';
import './upscale-screen.css';

/**
 * Route `/upscale` (beyond the spec, which leaves it open): the user's HD jobs by state, kept live
 * from the HD status stream; a job still waiting in the queue can be cancelled.
 */
export function UpscaleScreen() {
  const client = useMessaging();
  const queryClient = useQueryClient();
  const queryKey = ['hd-jobs', client?.user ?? null];
  const jobsQuery = useQuery({ queryKey, queryFn: fetchHdJobs });
  const [cancelError, setCancelError] = useState<string | null>(null);
  // Keeps the shared HD record (and its 3 s poll) alive while the queue is on screen.
  useHdJobs();

  useHdStatus((event) => {
    if (event.kind !== 'status') return;
    const jobs = queryClient.getQueryData<HdJob[]>(queryKey);
    const patched = jobs && patchJobs(jobs, event.message);
    if (patched) queryClient.setQueryData(queryKey, patched);
    else void queryClient.invalidateQueries({ queryKey });
  });

  const cancel = useMutation({
    mutationFn: (job: HdJob) => cancelHdJob(job.id),
    onMutate: () => setCancelError(null),
    onSuccess: (_answer, job) => {
      queryClient.setQueryData<HdJob[]>(queryKey, (jobs) => jobs && markJobCancelled(jobs, job.id));
      reportHdJobCancelled(job.id);
    },
    onError: (error, job) => {
      setCancelError(
        `Could not cancel the HD job for ${job.image} (${job.size}): ${error.message}`,
      );
      // It has most likely started meanwhile: show where it is now.
      void queryClient.invalidateQueries({ queryKey });
    },
  });

  return (
    <section className="screen upscale" aria-labelledby="upscale-title">
      <header className="upscale-header">
        <div>
          <h1 id="upscale-title" className="screen-title">
            HD queue
          </h1>
          <p className="screen-text">Your HD orders, as they wait, run and finish.</p>
        </div>
        <button
          type="button"
          className="button"
          disabled={jobsQuery.isFetching}
          onClick={() => void jobsQuery.refetch()}
        >
          {jobsQuery.isFetching ? TEXTS.refreshing : 'Refresh'}
        </button>
      </header>

      {cancelError !== null && (
        <div className="upscale-alert" role="alert">
          <p>{cancelError}</p>
          <button
            type="button"
            className="upscale-alert-close"
            aria-label="Dismiss"
            onClick={() => setCancelError(null)}
          >
            ×
          </button>
        </div>
      )}

      {jobsQuery.isPending ? (
        <div className="upscale-state">
          <div className="spinner" aria-hidden="true" />
          <p>Loading HD jobs…</p>
        </div>
      ) : jobsQuery.isError ? (
        <div className="upscale-state" role="alert">
          <p>Could not load the HD jobs.</p>
          <button type="button" className="button" onClick={() => void jobsQuery.refetch()}>
            Try again
          </button>
        </div>
      ) : jobsQuery.data.length === 0 ? (
        <div className="upscale-state">
          <p>No HD jobs yet.</p>
          <p className="screen-text">
            Open an image on the <Link to="/dashboard">Dashboard</Link> and choose Generate HD.
          </p>
        </div>
      ) : (
        <JobGroups
          jobs={jobsQuery.data}
          cancelling={cancel.isPending ? cancel.variables.id : null}
          onCancel={(job) => cancel.mutate(job)}
        />
      )}
    </section>
  );
}

function JobGroups({
  jobs,
  cancelling,
  onCancel,
}: {
  jobs: readonly HdJob[];
  cancelling: string | null;
  onCancel: (job: HdJob) => void;
}) {
  const groups = groupJobs(jobs);
  return (
    <div className="upscale-groups">
      {HD_JOB_GROUPS.filter((group) => groups[group.name].length > 0).map((group) => (
        <JobGroup
          key={group.name}
          name={group.name}
          title={group.title}
          jobs={groups[group.name]}
          cancelling={cancelling}
          onCancel={onCancel}
        />
      ))}
    </div>
  );
}

function JobGroup({
  name,
  title,
  jobs,
  cancelling,
  onCancel,
}: {
  name: HdJobGroupName;
  title: string;
  jobs: readonly HdJob[];
  cancelling: string | null;
  onCancel: (job: HdJob) => void;
}) {
  const titleId = useId();
  return (
    <section className={`upscale-group upscale-group-${name}`} aria-labelledby={titleId}>
      <h2 className="upscale-group-title">
        <span id={titleId}>{title}</span>
        <span className="upscale-count" aria-label={`${jobs.length} jobs`}>
          {jobs.length}
        </span>
      </h2>
      <table className="upscale-table">
        <thead>
          <tr>
            <th scope="col">Preview</th>
            <th scope="col">Image</th>
            <th scope="col">Size</th>
            <th scope="col">Ordered</th>
            <th scope="col">Status</th>
          </tr>
        </thead>
        <tbody>
          {jobs.map((job) => (
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
              <td>{formatImageDate({ created_at: job.created_at })}</td>
              <td>
                <JobStatus job={job} cancelling={cancelling === job.id} onCancel={onCancel} />
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
  cancelling,
  onCancel,
}: {
  job: HdJob;
  cancelling: boolean;
  onCancel: (job: HdJob) => void;
}) {
  switch (job.status) {
    case 'in_progress': {
      const percent = Math.round(job.percent);
      return (
        <div className="upscale-progress">
          <progress max={100} value={percent} aria-label={`Progress of ${job.image}`} />
          <span>{percent}%</span>
        </div>
      );
    }
    case 'queued':
      return (
        <div className="upscale-queued">
          <span>{job.error === undefined ? 'Waiting' : 'Waiting to retry'}</span>
          <button
            type="button"
            className="button upscale-cancel"
            aria-label={`Cancel HD job for ${job.image} (${job.size})`}
            disabled={cancelling}
            onClick={() => onCancel(job)}
          >
            {cancelling ? 'Cancelling…' : 'Cancel'}
          </button>
        </div>
      );
    case 'finished':
      return job.output_image === undefined ? (
        <span>Finished</span>
      ) : (
        <a className="upscale-download" href={hdImageUrl(job.output_image)} download>
          {TEXTS.downloadHdImage}
        </a>
      );
    case 'error':
      return <span className="upscale-error">{job.error ?? 'Failed'}</span>;
    case 'cancelled':
      return <span className="upscale-muted">Cancelled</span>;
  }
}
