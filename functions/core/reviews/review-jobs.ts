import type { Tenant } from '../tenancy';

export interface ReviewJobRef {
  account_id: string;
  mode: Tenant['mode'];
  id: string;
}

/** A review, run asynchronously in the review function (locally: in the runtime's process). */
export interface ReviewJob {
  action: 'review';
  ref: ReviewJobRef;
}

export interface ReviewJobs {
  start(job: ReviewJob): Promise<void>;
}
