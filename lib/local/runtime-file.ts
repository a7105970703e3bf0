import { readFile, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';

/** Where the local runtime keeps its data unless `DATA_DIR` says otherwise. */
export const defaultDataDir = resolve(import.meta.dirname, '../../.local-data');

export const dataDirFromEnvironment = (): string => resolve(process.env.DATA_DIR ?? defaultDataDir);

/** What a running local runtime tells the CLI and the tests about itself. */
export interface RuntimeInfo {
  apiUrl: string;
  dynamodbEndpoint: string;
  tableName: string;
  region: string;
  pid: number;
}

const fileOf = (dataDir: string): string => join(dataDir, 'runtime.json');

export const writeRuntimeInfo = (dataDir: string, info: RuntimeInfo): Promise<void> =>
  writeFile(fileOf(dataDir), JSON.stringify(info, null, 2));

export const removeRuntimeInfo = (dataDir: string): Promise<void> => rm(fileOf(dataDir), { force: true });

export const readRuntimeInfo = async (dataDir: string): Promise<RuntimeInfo | undefined> => {
  try {
    const info = JSON.parse(await readFile(fileOf(dataDir), 'utf8')) as RuntimeInfo;
    process.kill(info.pid, 0);
    return info;
  } catch {
    return undefined;
  }
};
