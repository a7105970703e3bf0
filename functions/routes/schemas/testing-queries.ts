import * as v from 'valibot';
import { jobStatuses } from '../../core/testing/test-records';
import { listQuery, picklistParam, idFilterParam } from './common';

export const listTestsQuery = /* @__PURE__ */ (() =>
  listQuery(['created_at'] as const, {
    project_id: v.optional(idFilterParam('project', "Only this project's suites and runs.")),
    object: v.optional(picklistParam(['test_suite', 'test_run'] as const, 'Only suites (`test_suite`) or only runs (`test_run`).')),
    status: v.optional(picklistParam(jobStatuses, 'Only suites and runs in this status.')),
  }))();
