import * as v from 'valibot';
import { scanTypes } from '../../core/security/scanner';
import { branchName } from './common';

// Each schema in one call marked pure: a bundle keeps only those its handler uses (see webhooks-bodies.ts).

const branch = /* @__PURE__ */ (() => v.pipe(branchName, v.description("Branch to scan; the repository's default branch when absent.")))();

export const createScanBody = /* @__PURE__ */ (() =>
  v.strictObject({
    project_id: v.pipe(
      v.string('must be a string'),
      v.minLength(1, 'is required'),
      v.description('A project of your account and mode (proj_…).'),
    ),
    scan_types: v.pipe(
      v.array(v.picklist(scanTypes, `must each be one of ${scanTypes.join(', ')}`), 'must be an array of scan types'),
      v.minLength(1, `must name at least one of ${scanTypes.join(', ')}`),
      v.description('The scanners to run; a type named twice runs once.'),
    ),
    branch: v.optional(branch),
  }))();
