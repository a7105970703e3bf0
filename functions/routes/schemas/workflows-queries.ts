import * as v from 'valibot';
import { stageNames } from '../../core/workflows/stage-data';
import { logLevels, workflowSortFields, workflowStatuses } from '../../core/workflows/workflow';
import { listQuery, picklistParam, idFilterParam } from './common';

export const listWorkflowsQuery = /* @__PURE__ */ (() =>
  listQuery(workflowSortFields, {
    project_id: v.optional(idFilterParam('project', "Only this project's workflows.")),
    status: v.optional(picklistParam(workflowStatuses, 'Only workflows in this status.')),
  }))();

export const listLogsQuery = /* @__PURE__ */ (() =>
  listQuery(['timestamp'] as const, {
    stage: v.optional(picklistParam(stageNames, "Only this stage's lines.")),
    level: v.optional(picklistParam(logLevels, 'Only lines of this level.')),
  }))();
