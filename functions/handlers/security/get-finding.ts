import { getFinding } from '../../core/security/security-use-cases';
import { viewOfFinding } from '../../core/security/views';
import { apiReadHandler } from '../../http/api-handler';
import { getFindingRoute } from '../../routes/security';
import { securityDeps } from './deps';

const deps = securityDeps();

export const handler = apiReadHandler(getFindingRoute, async ({ principal, params }) => ({
  data: viewOfFinding(await getFinding(principal, params.id, deps)),
}));
