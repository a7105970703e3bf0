import { requestRemediation } from '../../core/security/security-use-cases';
import { viewOfFinding } from '../../core/security/views';
import { securityJobsFromEnvironment } from '../../adapters/security/security-jobs';
import { apiHandler } from '../../http/api-handler';
import { remediateFindingRoute } from '../../routes/security';
import { securityDeps } from './deps';

const deps = securityDeps(securityJobsFromEnvironment);

export const handler = apiHandler(remediateFindingRoute, async ({ principal, params }) => ({
  data: viewOfFinding(await requestRemediation(principal, params.id, deps)),
}));
