// HD: the shared record of HD jobs (the order, its status, the queue) and the sidebar's badge.
export { orderHd, reportHdJobCancelled, useHdJobs, useImageHdState } from './hd-job-store';
export type { HdJobView, HdJobsState, ImageHdState } from './hd-job-state';
export { ActiveHdJobsBadge } from './active-hd-jobs';
