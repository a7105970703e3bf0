import { getScan } from '../../core/security/security-use-cases';
import { viewOfScan } from '../../core/security/views';
import { apiReadHandler } from '../../http/api-handler';
import { getScanRoute } from '../../routes/security';
import { securityDeps } from './deps';

const deps = securityDeps();

export const handler = apiReadHandler(getScanRoute, async ({ principal, params }) => ({
  data: viewOfScan(await getScan(principal, params.id, deps)),
}));
