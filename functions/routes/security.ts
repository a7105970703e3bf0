import * as v from 'valibot';
import { patchMediaType } from '../core/security/remediation-patch';
import { idParams } from './schemas/common';
import { createScanBody } from './schemas/security-bodies';
import { listFindingsQuery, listScansQuery } from './schemas/security-queries';
import { findingSchema, scanSchema } from './schemas/security';
import { defineRoute, type ResponseSchemas } from './route';

const tag = 'Security';

export const createScanRoute = /* @__PURE__ */ defineRoute({
  operationId: 'createScan',
  summary: 'Start a security scan',
  description:
    'Queues the scan; it runs asynchronously in the security function: secrets (secretlint), dependencies (OSV advisories), sast (ESLint security rules for JavaScript and TypeScript).',
  tag,
  method: 'POST',
  path: '/v1/security/scans',
  handler: 'security/create-scan',
  scope: 'write:security',
  tableAccess: 'write',
  startsSecurityJobs: true,
  body: createScanBody,
  success: { status: 201, description: 'The new scan, `queued`.' },
});

export const listScansRoute = /* @__PURE__ */ defineRoute({
  operationId: 'listScans',
  summary: 'List security scans',
  tag,
  method: 'GET',
  path: '/v1/security/scans',
  handler: 'security/list-scans',
  scope: 'read:security',
  tableAccess: 'read',
  query: listScansQuery,
  success: { status: 200, description: 'A page of scans.', list: true },
});

export const getScanRoute = /* @__PURE__ */ defineRoute({
  operationId: 'getScan',
  summary: 'Get a security scan',
  tag,
  method: 'GET',
  path: '/v1/security/scans/{id}',
  handler: 'security/get-scan',
  scope: 'read:security',
  tableAccess: 'read',
  params: idParams,
  success: { status: 200, description: 'The scan: status, commit, counts per type and severity, coverage, errors.' },
  errors: [404],
});

export const listFindingsRoute = /* @__PURE__ */ defineRoute({
  operationId: 'listFindings',
  summary: 'List security findings',
  tag,
  method: 'GET',
  path: '/v1/security/findings',
  handler: 'security/list-findings',
  scope: 'read:security',
  tableAccess: 'read',
  query: listFindingsQuery,
  success: { status: 200, description: 'A page of findings.', list: true },
});

export const getFindingRoute = /* @__PURE__ */ defineRoute({
  operationId: 'getFinding',
  summary: 'Get a security finding',
  tag,
  method: 'GET',
  path: '/v1/security/findings/{id}',
  handler: 'security/get-finding',
  scope: 'read:security',
  tableAccess: 'read',
  params: idParams,
  success: { status: 200, description: 'The finding.' },
  errors: [404],
});

export const getFindingPatchRoute = /* @__PURE__ */ defineRoute({
  operationId: 'getFindingPatch',
  summary: "Get a finding's remediation patch",
  description:
    "The verified patch of the finding's last remediation as a unified diff (`git diff` format, `text/x-diff`; apply it with `git apply`), " +
    "the body whose SHA-256 and size the finding's `remediation.patch` records; `ETag` is that SHA-256 (send it back in `If-None-Match` and an unchanged patch answers 304 with no body). Secrets the patch would " +
    'show (the removed line of a secrets finding) are masked as `***`, so those lines show what changed but do not apply; the pushed ' +
    '`remediation/<finding id>` branch carries the change itself. 404 while the finding has no patch (never remediated, in progress, failed).',
  tag,
  method: 'GET',
  path: '/v1/security/findings/{id}/patch',
  handler: 'security/get-finding-patch',
  scope: 'read:security',
  tableAccess: 'read',
  readsFindingPatches: true,
  params: idParams,
  success: { status: 200, description: 'The unified diff.', mediaType: patchMediaType },
  errors: [404, 409],
});

export const remediateFindingRoute = /* @__PURE__ */ defineRoute({
  operationId: 'remediateFinding',
  summary: 'Remediate a finding',
  description:
    'Dependencies get the mechanical upgrade to the fixed version; secrets and sast findings a patch proposed by the AI provider. The patch is verified by re-running the scanner on the patched tree. Only an open finding can be remediated (else 409).',
  tag,
  method: 'POST',
  path: '/v1/security/findings/{id}/remediate',
  handler: 'security/remediate',
  scope: 'write:security',
  tableAccess: 'write',
  startsSecurityJobs: true,
  params: idParams,
  success: { status: 202, description: 'The finding, `remediating`.' },
  errors: [404, 409],
});

export const securityRoutes = [
  createScanRoute,
  listScansRoute,
  getScanRoute,
  listFindingsRoute,
  getFindingRoute,
  getFindingPatchRoute,
  remediateFindingRoute,
];

/** The `data` of each operation's success response, for the OpenAPI document (`ResponseSchemas`). */
export const securityResponses = {
  createScan: scanSchema,
  listScans: scanSchema,
  getScan: scanSchema,
  listFindings: findingSchema,
  getFinding: findingSchema,
  getFindingPatch: /* @__PURE__ */ v.string(),
  remediateFinding: findingSchema,
} satisfies ResponseSchemas;
