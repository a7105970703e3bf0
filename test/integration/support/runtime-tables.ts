import { createDocumentClient, type TableRef } from '../../../functions/adapters/dynamodb/client';
import { readRuntimeInfo } from '../../../lib/local/runtime-file';

/** Document clients on child runtimes' tables (found in their runtime.json); `closeAll` destroys those opened so far. */
export const runtimeTables = () => {
  const opened: TableRef[] = [];
  return {
    async of(dataDir: string): Promise<TableRef> {
      const info = await readRuntimeInfo(dataDir);
      if (!info) throw new Error(`no running runtime in ${dataDir}`);
      const table = {
        client: createDocumentClient({
          endpoint: info.dynamodbEndpoint,
          region: info.region,
          credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
        }),
        tableName: info.tableName,
      };
      opened.push(table);
      return table;
    },
    closeAll(): void {
      for (const table of opened.splice(0)) table.client.destroy();
    },
  };
};
