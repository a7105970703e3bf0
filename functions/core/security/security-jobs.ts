import type { Tenant } from '../tenancy';

export interface SecurityJobRef {
  account_id: string;
  mode: Tenant['mode'];
  id: string;
}

/** A scan or a remediation, run asynchronously in the security function. */
export interface SecurityJob {
  action: 'scan' | 'remediate';
  ref: SecurityJobRef;
}

export interface SecurityJobs {
  start(job: SecurityJob): Promise<void>;
}
