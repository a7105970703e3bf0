import * as v from 'valibot';
import { findingSortFields, findingStatuses } from '../../core/security/finding';
import { scanStatuses } from '../../core/security/scan';
import { scanTypes, severities } from '../../core/security/scanner';
import { listQuery, picklistParam, idFilterParam } from './common';

export const listScansQuery = /* @__PURE__ */ (() =>
  listQuery(['created_at'] as const, {
    project_id: v.optional(idFilterParam('project', "Only this project's scans.")),
    status: v.optional(picklistParam(scanStatuses, 'Only scans in this status.')),
  }))();

export const listFindingsQuery = /* @__PURE__ */ (() =>
  listQuery(findingSortFields, {
    severity: v.optional(picklistParam(severities, 'Only findings of this severity.')),
    status: v.optional(picklistParam(findingStatuses, 'Only findings in this status.')),
    project_id: v.optional(idFilterParam('project', "Only this project's findings.")),
    type: v.optional(picklistParam(scanTypes, 'Only findings of this scan type.')),
    scan_id: v.optional(idFilterParam('scan', 'Only findings whose latest scan is this one.')),
  }))();
