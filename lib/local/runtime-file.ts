import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';

/** Where the local runtime keeps its data unless `DATA_DIR` says otherwise. */
export const defaultDataDir = resolve(import.meta.dirname, '../../.local-data');

export const dataDirFromEnvironment = (): string => resolve(process.env.DATA_DIR ?? defaultDataDir);

/**
 * Where every running local runtime of this checkout leaves a pointer to its data folder, so that
 * the CLI finds one started with a custom `DATA_DIR` without being told.
 */
export const runtimeRegistryDir = (): string => resolve(process.env.LOCAL_RUNTIME_REGISTRY ?? join(defaultDataDir, '.running'));

/** What a running local runtime tells the CLI and the tests about itself. */
export interface RuntimeInfo {
  apiUrl: string;
  dynamodbEndpoint: string;
  tableName: string;
  region: string;
  pid: number;
}

const fileOf = (dataDir: string): string => join(dataDir, 'runtime.json');
const pointerOf = (registry: string, dataDir: string, pid: number): string =>
  join(registry, `${pid}-${createHash('sha256').update(resolve(dataDir)).digest('hex').slice(0, 16)}.json`);

export const writeRuntimeInfo = async (dataDir: string, info: RuntimeInfo, registry = runtimeRegistryDir()): Promise<void> => {
  await writeFile(fileOf(dataDir), JSON.stringify(info, null, 2));
  await mkdir(registry, { recursive: true });
  await writeFile(pointerOf(registry, dataDir, info.pid), JSON.stringify({ dataDir: resolve(dataDir), pid: info.pid }));
};

export const removeRuntimeInfo = async (dataDir: string, registry = runtimeRegistryDir()): Promise<void> => {
  await rm(fileOf(dataDir), { force: true });
  await rm(pointerOf(registry, dataDir, process.pid), { force: true });
};

export const readRuntimeInfo = async (dataDir: string): Promise<RuntimeInfo | undefined> => {
  try {
    const info = JSON.parse(await readFile(fileOf(dataDir), 'utf8')) as RuntimeInfo;
    process.kill(info.pid, 0);
    return info;
  } catch {
    return undefined;
  }
};

/** The data folders of the runtimes still running (pointers of stopped ones are removed). */
export const runningRuntimes = async (registry = runtimeRegistryDir()): Promise<Array<{ dataDir: string; info: RuntimeInfo }>> => {
  const names = await readdir(registry).catch(() => [] as string[]);
  const found: Array<{ dataDir: string; info: RuntimeInfo }> = [];
  for (const name of names.filter((n) => n.endsWith('.json'))) {
    const pointer = await readFile(join(registry, name), 'utf8')
      .then((text) => JSON.parse(text) as { dataDir?: unknown; pid?: unknown })
      .catch(() => ({}) as { dataDir?: unknown; pid?: unknown });
    const info = typeof pointer.dataDir === 'string' ? await readRuntimeInfo(pointer.dataDir) : undefined;
    if (info && info.pid === pointer.pid) found.push({ dataDir: pointer.dataDir as string, info });
    else await rm(join(registry, name), { force: true });
  }
  return found;
};

export type RuntimeLookup =
  | { kind: 'found'; dataDir: string; info: RuntimeInfo; foundBy: 'DATA_DIR' | 'default' | 'registry' }
  | { kind: 'several'; dataDirs: string[] }
  | { kind: 'none'; dataDir?: string };

/**
 * The local runtime the CLI acts on: the one of `DATA_DIR` when it is set; else the one of the
 * default folder; else the only one running with another folder.
 */
export const locateRuntime = async (env: NodeJS.ProcessEnv = process.env, registry = runtimeRegistryDir()): Promise<RuntimeLookup> => {
  if (env.DATA_DIR) {
    const dataDir = resolve(env.DATA_DIR);
    const info = await readRuntimeInfo(dataDir);
    return info ? { kind: 'found', dataDir, info, foundBy: 'DATA_DIR' } : { kind: 'none', dataDir };
  }
  const atDefault = await readRuntimeInfo(defaultDataDir);
  if (atDefault) return { kind: 'found', dataDir: defaultDataDir, info: atDefault, foundBy: 'default' };
  const running = await runningRuntimes(registry);
  if (running.length === 1 && running[0]) return { kind: 'found', ...running[0], foundBy: 'registry' };
  if (running.length > 1) return { kind: 'several', dataDirs: running.map((r) => r.dataDir) };
  return { kind: 'none' };
};

/** Why the CLI found no runtime, and what to do. */
export const runtimeLookupProblem = (lookup: Exclude<RuntimeLookup, { kind: 'found' }>): string =>
  lookup.kind === 'several'
    ? `Several local runtimes are running; name one with DATA_DIR:\n${lookup.dataDirs.map((dir) => `  DATA_DIR=${dir} npm run cli -- …`).join('\n')}`
    : lookup.dataDir
      ? `No local runtime is running with DATA_DIR=${lookup.dataDir}: start it with \`DATA_DIR=${lookup.dataDir} npm start\`, or unset DATA_DIR to use the one running elsewhere.`
      : 'The local runtime is not running: start it with `npm start` (a runtime started with another DATA_DIR is found too while it runs), or pass --stack <name> for a deployed stack.';
