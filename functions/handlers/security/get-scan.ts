import { getScan } from '../../core/security/security-use-cases';
import { viewOfScan } from '../../core/security/views';
import { apiReadHandler } from '../../http/api-handler';
import { getScanRoute } from '../../routes/security';
import { tableFromEnvironment } from '../../adapters/dynamodb/client';
import { dynamoScanReader } from '../../adapters/dynamodb/scan-repository';

// A read wires the one call it makes: no scan writes, no findings, no list paging.
const deps = { scans: dynamoScanReader(tableFromEnvironment()) };

export const handler = apiReadHandler(getScanRoute, async ({ principal, params }) => ({
  data: viewOfScan(await getScan(principal, params.id, deps)),
}));
