import * as v from 'valibot';
import { providerNames } from '../../adapters/deployments/provider-configs';
import { environments } from '../../core/deployments/deployment';
import { branchName } from './common';

/** The service's own fields; the rest belongs to the provider, which checks it (422 naming the field). */
const config = v.looseObject({
  branch: branchName,
  auto_rollback: v.optional(v.boolean('must be true or false')),
});

export const createDeploymentBody = v.strictObject({
  project_id: v.pipe(
    v.string('must be a string'),
    v.minLength(1, 'is required'),
    v.description('A project of your account and mode (proj_…).'),
  ),
  environment: v.picklist(environments, `must be one of ${environments.join(', ')}`),
  provider: v.pipe(
    v.picklist(providerNames, `must be one of ${providerNames.join(', ')}`),
    v.description('Who deploys: `deploy-hook` (a signed POST to your endpoint) or `aws-lambda` (this stack updates an allowed function).'),
  ),
  config: v.pipe(
    config,
    v.description(
      "`branch` (required: the branch whose code is deployed), `auto_rollback` (default true), and the provider's own settings (see the README).",
    ),
  ),
  artifact: v.optional(
    v.pipe(v.string('must be a string'), v.description('A completed workflow (wf_…) of this project whose package output to deploy.')),
  ),
});
