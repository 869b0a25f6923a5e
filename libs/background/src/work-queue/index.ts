export { workQueueTable, workQueueOwnerColumn, jobsChannel } from './work-queue.table';
export { forEachJob } from './each-job';
export { enqueueJobs } from './enqueue-jobs';
export type { NewJob } from './enqueue-jobs';
export {
  completedJobsCte,
  completeJobs,
  holdJobs,
  jobFences,
  JobLeaseLostError,
  markCompleted,
} from './job';
export type { ClaimedRow, Job } from './job';
export { claimedOnInsert, NO_RESERVATION } from './job-reservation';
export type { JobReservation } from './job-reservation';
export { WorkQueue } from './work-queue';
export type { WorkQueueWorkerOptions, WorkQueueWorker, QueueLogger } from './queue-runner';
export { CommitBatcher, writeTogetherOrAlone } from './commit-batcher';
