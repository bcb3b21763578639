// HD: the LD Image Details modal with the HD order, and the shared record of HD jobs.
export { LdImageDetailsModal } from './ld-image-details-modal';
export type { LdImageDetailsModalProps } from './ld-image-details-modal';
export { orderHd, reportHdJobCancelled, useHdJobs, useImageHdState } from './hd-job-store';
export { cancelHdJob, fetchHdJobs, fetchHdQueue, moveHdJobToTop, setHdQueuePaused } from './hd-api';
export type { HdJobView, HdJobsState, ImageHdState } from './hd-job-state';
export { ActiveHdJobsBadge } from './active-hd-jobs';
