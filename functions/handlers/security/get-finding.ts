import { getFinding } from '../../core/security/security-use-cases';
import { viewOfFinding } from '../../core/security/views';
import { apiReadHandler } from '../../http/api-handler';
import { getFindingRoute } from '../../routes/security';
import { tableFromEnvironment } from '../../adapters/dynamodb/client';
import { dynamoFindingReader } from '../../adapters/dynamodb/finding-repository';

// A read wires the one call it makes: no finding writes, no scans, no list paging.
const deps = { findings: dynamoFindingReader(tableFromEnvironment()) };

export const handler = apiReadHandler(getFindingRoute, async ({ principal, params }) => ({
  data: viewOfFinding(await getFinding(principal, params.id, deps)),
}));
