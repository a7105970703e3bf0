import type { AiTask } from '../../../functions/core/ai/provider';
import type { ChangeSet, Plan, RepositoryContext, VerificationReport } from '../../../functions/core/workflows/stage-data';

export const context: RepositoryContext = {
  repository: 'https://github.com/example/app.git',
  branch: 'main',
  commit: 'a'.repeat(40),
  files: [
    { path: 'package.json', size: 120 },
    { path: 'src/a.ts', size: 30 },
    { path: 'README.md', size: 12 },
  ],
  filesTruncated: false,
  manifests: { 'package.json': '{ "name": "app" }\n' },
  readme: '# App\n',
  languages: ['ts'],
};

export const plan: Plan = { summary: 'Add a greeting', steps: ['Read package.json', 'Write src/a.ts'], files: ['src/a.ts'] };

export const planTask = (prompt: string): Extract<AiTask, { kind: 'plan' }> => ({ kind: 'plan', prompt, context });

export const changeSetTask = (
  prompt: string,
  files: Record<string, string> = { 'src/a.ts': 'export const a = 1;\n' },
): Extract<AiTask, { kind: 'change_set' }> => ({
  kind: 'change_set',
  prompt,
  plan,
  context,
  files,
});

export const changes: ChangeSet = {
  summary: 'Write three files',
  files: [
    { path: 'src/a.ts', content: 'export const a = 2;\n' },
    { path: 'src/b.ts', content: 'export const b = ;\n' },
    { path: 'old.txt', content: null },
  ],
};

export const failingReport: VerificationReport = {
  passed: false,
  checks: [
    { name: 'syntax', path: 'src/a.ts', status: 'passed' },
    { name: 'syntax', path: 'src/b.ts', status: 'failed', message: 'Expression expected' },
  ],
  problems: [{ check: 'syntax', path: 'src/b.ts', line: 1, message: 'Expression expected' }],
};

export const fixTask = (report: VerificationReport = failingReport): Extract<AiTask, { kind: 'fix' }> => ({
  kind: 'fix',
  prompt: 'Add a greeting',
  changes,
  report,
  originals: { 'src/a.ts': 'export const a = 1;\n', 'src/b.ts': null, 'old.txt': 'old\n' },
});

export const validChangeSetJson = JSON.stringify({
  summary: 'Write src/a.ts',
  files: [{ path: 'src/a.ts', content: 'export const a = 3;\n' }],
});
export const validPlanJson = JSON.stringify({ summary: 'Add a greeting', steps: ['Write src/a.ts'], files: ['src/a.ts'] });
