import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { writeFaultsFile, faultsFromFile, type FaultRule } from '../../../lib/local/step-functions/fault-rules';
import { eventually } from './receiver';
import type { as } from './http';

type Api = ReturnType<typeof as>;

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=Fixture', '-c', 'user.email=fixture@example.com', '-c', 'init.defaultBranch=main', ...args], {
    cwd,
    encoding: 'utf8',
  }).trim();

export const defaultFixtureFiles: Record<string, string> = {
  'package.json': `${JSON.stringify({ name: 'greeter', version: '1.0.0', type: 'module', main: 'src/index.js' }, null, 2)}\n`,
  'README.md': '# Greeter\n\nSays hello.\n',
  'src/index.js': 'export const greet = (name) => `Hello, ${name}!`;\n',
  'src/math.ts': 'export const add = (a: number, b: number): number => a + b;\n',
};

/** A real git repository in a temporary folder, one commit on `main`; its file:/// URL. */
export const fixtureRepository = async (
  files: Record<string, string> = defaultFixtureFiles,
): Promise<{ dir: string; url: string; commit: string }> => {
  const dir = await mkdtemp(join(tmpdir(), 'pas-repo-'));
  git(dir, 'init', '-q');
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), content);
  }
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'Initial commit');
  return { dir, url: `file://${dir}`, commit: git(dir, 'rev-parse', 'HEAD') };
};

export const gitOutput = git;

export const terminal = ['completed', 'failed', 'cancelled'];

/** Polls the workflow until `done` holds for it. */
export const waitForWorkflow = (
  api: Api,
  id: string,
  done: (workflow: any) => boolean = (w) => terminal.includes(w.status),
  timeoutMs = 30_000,
): Promise<any> => {
  let last: any;
  return eventually(
    async () => {
      const answer = await api.get(`/workflows/${id}`);
      last = answer.body?.data;
      return last && done(last) ? last : undefined;
    },
    timeoutMs,
    () =>
      `workflow ${id} is ${JSON.stringify(last?.status)} (${JSON.stringify(last?.stage_statuses)}), error ${JSON.stringify(last?.error)}`,
    50,
  );
};

/** Every log line of a workflow, oldest first. */
export const allLogs = async (api: Api, id: string, query = ''): Promise<any[]> => {
  const answer = await api.get(`/workflows/${id}/logs?per_page=100${query}`);
  if (answer.status !== 200) throw new Error(`logs answered ${answer.status}: ${answer.text}`);
  return answer.body.data;
};

/** The local runtime's failure-injection rules (Step Functions Local's mocked errors, locally). */
const faultsFile = () => join(process.env.IT_DATA_DIR as string, 'faults.json');

/** Adds rules to the running runtime's fault file (tests match them on their own project id). */
export const injectFaults = (...rules: FaultRule[]): void => {
  writeFaultsFile(faultsFile(), [...faultsFromFile(faultsFile())(), ...rules]);
};
