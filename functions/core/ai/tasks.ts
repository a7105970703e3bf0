import * as v from 'valibot';
import type { RepositoryContext } from '../workflows/stage-data';
import { AiProviderError, testFrameworks, type AiAnswer, type AiTask, type TestFramework } from './provider';
import { ReviewAnswerSchema, reviewPrompt } from './review-task';

/**
 * What every provider shares about a task: the prompt a real model is given, and the schema its
 * answer (or the `local` provider's) must pass before the workflow touches the repository.
 */

export const maxChangedFiles = 200;
export const maxFileBytes = 1024 * 1024;
const maxPathLength = 1024;

/** Sizes that keep the rendered prompt bounded (characters; roughly 4 per token). */
export const promptLimits = {
  request: 20_000,
  listedFiles: 1_000,
  manifest: 8_000,
  manifests: 24_000,
  readme: 8_000,
  fileContent: 60_000,
  fileContents: 160_000,
  originals: 60_000,
  problems: 100,
} as const;

/** Relative to the repository root, `/`-separated, no `.`/`..`/empty segment, nothing inside `.git`. */
export const isSafeRelativePath = (path: string): boolean =>
  path.length > 0 &&
  path.length <= maxPathLength &&
  !path.startsWith('/') &&
  !/[\\\0]/.test(path) &&
  path.split('/').every((segment) => segment !== '' && segment !== '.' && segment !== '..' && segment.toLowerCase() !== '.git');

const unsafePathMessage = 'must be a relative "/"-separated path without "..", a leading "/" or ".git/"';

const SafePath = v.pipe(v.string(), v.check(isSafeRelativePath, unsafePathMessage));

export const PlanSchema = v.object({
  summary: v.pipe(v.string(), v.nonEmpty('must not be empty'), v.maxLength(2_000)),
  steps: v.pipe(v.array(v.pipe(v.string(), v.maxLength(2_000))), v.maxLength(100)),
  /** A hint only, so not held to the path rules a change is. */
  files: v.pipe(v.array(v.pipe(v.string(), v.maxLength(maxPathLength))), v.maxLength(maxChangedFiles)),
});

export const FileChangeSchema = v.object({
  path: SafePath,
  content: v.nullable(v.pipe(v.string(), v.maxBytes(maxFileBytes, `must be at most ${maxFileBytes} bytes`))),
});

export const ChangeSetSchema = v.object({
  summary: v.pipe(v.string(), v.maxLength(4_000)),
  files: v.pipe(
    v.array(FileChangeSchema),
    v.maxLength(maxChangedFiles, `must have at most ${maxChangedFiles} files`),
    v.check((files) => new Set(files.map((file) => file.path)).size === files.length, 'must name each path once'),
  ),
});

// ---- Generated tests ----

export const maxTestFiles = 50;
export const maxTestFileBytes = 256 * 1024;
export const maxTestCases = 500;
const maxTestCaseLength = 500;

/** How each framework finds its test files, in words (for the prompt and for refusals). */
export const testFileConventions: Record<TestFramework, string> = {
  jest: 'named *.test.js, *.test.ts, *.test.mjs or *.test.cjs, or a .js/.ts/.mjs/.cjs file under a __tests__/ folder',
  vitest: 'named *.test.js, *.test.ts, *.test.mjs or *.test.cjs, or a .js/.ts/.mjs/.cjs file under a __tests__/ folder',
  'node:test': 'named *.test.js, *.test.mjs or *.test.cjs (Node 20 runs JavaScript only)',
  pytest: 'named test_*.py or *_test.py',
};

/** True when `path` is a test file `framework` would pick up by its default conventions. */
export const isTestFilePath = (framework: TestFramework, path: string): boolean => {
  const segments = path.split('/');
  const name = segments[segments.length - 1] ?? '';
  switch (framework) {
    case 'jest':
    case 'vitest':
      return (
        /^[^.].*\.test\.(?:js|ts|mjs|cjs)$/.test(name) ||
        (segments.slice(0, -1).includes('__tests__') && /^[^.].*\.(?:js|ts|mjs|cjs)$/.test(name))
      );
    case 'node:test':
      return /^[^.].*\.test\.(?:js|mjs|cjs)$/.test(name);
    case 'pytest':
      return /^test_.+\.py$/.test(name) || /^[^.].*_test\.py$/.test(name);
  }
};

const generatedTestsSchema = (framework: TestFramework) =>
  v.object({
    summary: v.pipe(v.string(), v.maxLength(4_000)),
    files: v.pipe(
      v.array(
        v.object({
          path: v.pipe(
            SafePath,
            v.check((path) => isTestFilePath(framework, path), `must be a ${framework} test file: ${testFileConventions[framework]}`),
          ),
          content: v.pipe(
            v.string(),
            v.nonEmpty('must not be empty'),
            v.maxBytes(maxTestFileBytes, `must be at most ${maxTestFileBytes} bytes`),
          ),
          cases: v.pipe(
            v.array(v.pipe(v.string(), v.nonEmpty('must not be empty'), v.maxLength(maxTestCaseLength))),
            v.minLength(1, 'must name at least one test'),
            v.maxLength(maxTestCases, `must have at most ${maxTestCases} cases`),
          ),
        }),
      ),
      v.maxLength(maxTestFiles, `must have at most ${maxTestFiles} files`),
      v.check((files) => new Set(files.map((file) => file.path)).size === files.length, 'must name each path once'),
    ),
  });

const GeneratedTestsSchemas = new Map(testFrameworks.map((framework) => [framework, generatedTestsSchema(framework)]));

const schemaFor = (task: AiTask) => {
  if (task.kind === 'plan') return PlanSchema;
  if (task.kind === 'tests') return GeneratedTestsSchemas.get(task.framework) ?? generatedTestsSchema(task.framework);
  if (task.kind === 'review') return ReviewAnswerSchema;
  return ChangeSetSchema;
};

/** Checks an answer against its task's schema; unknown keys are dropped. */
export const validateAnswer = <T extends AiTask>(task: T, value: unknown): AiAnswer<T> => {
  const result = v.safeParse(schemaFor(task), value);
  if (result.success) return result.output as AiAnswer<T>;
  const issues = result.issues.slice(0, 5).map((issue) => `${v.getDotPath(issue) ?? '(answer)'}: ${issue.message}`);
  const more = result.issues.length > 5 ? ` (and ${result.issues.length - 5} more)` : '';
  throw new AiProviderError(`The ${task.kind} answer has the wrong shape: ${issues.join('; ')}${more}`);
};

/** The JSON object in a reply, tolerating a Markdown fence or prose around it. */
const jsonTextOf = (reply: string): string => {
  let text = reply.trim();
  if (text.startsWith('```')) {
    text = text.slice(text.indexOf('\n') + 1);
    if (text.trimEnd().endsWith('```')) text = text.trimEnd().slice(0, -3);
    text = text.trim();
  }
  if (!text.startsWith('{')) {
    const start = text.indexOf('{');
    const end = text.lastIndexOf('}');
    if (start >= 0 && end > start) text = text.slice(start, end + 1);
  }
  return text;
};

export const parseAnswer = <T extends AiTask>(task: T, reply: string): AiAnswer<T> => {
  if (reply.trim() === '') throw new AiProviderError(`The ${task.kind} answer is empty`);
  let value: unknown;
  try {
    value = JSON.parse(jsonTextOf(reply));
  } catch (error) {
    const reason = error instanceof Error ? error.message.slice(0, 200) : 'unparseable';
    throw new AiProviderError(`The ${task.kind} answer is not valid JSON: ${reason}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new AiProviderError(`The ${task.kind} answer is not a JSON object`);
  }
  return validateAnswer(task, value);
};

// ---- Prompt rendering ----

const clip = (text: string, max: number): string =>
  text.length <= max ? text : `${text.slice(0, max)}\n… (cut at ${max} of ${text.length} characters)`;

/** A Markdown fence longer than any backtick run inside the content, so the content cannot close it. */
const fenced = (content: string, info = ''): string => {
  const longestRun = Math.max(0, ...(content.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(Math.max(3, longestRun + 1));
  return `${fence}${info}\n${content}${content.endsWith('\n') ? '' : '\n'}${fence}`;
};

/** Each file fenced under its path, until the budget is spent; the rest are named as omitted. */
const fileSections = (files: Array<[string, string | null]>, budget: number, absent: string): string => {
  let left = budget;
  return files
    .map(([path, content]) => {
      if (content === null) return `#### ${path}\n${absent}`;
      if (left <= 0) return `#### ${path}\n(omitted: prompt budget spent)`;
      const shown = clip(content, Math.min(promptLimits.fileContent, left));
      left -= shown.length;
      return `#### ${path}\n${fenced(shown)}`;
    })
    .join('\n\n');
};

const contextSection = (context: RepositoryContext): string => {
  const listed = context.files.slice(0, promptLimits.listedFiles);
  const cut = context.filesTruncated || listed.length < context.files.length;
  let manifestBudget = promptLimits.manifests;
  const manifests = Object.entries(context.manifests).map(([path, text]) => {
    if (manifestBudget <= 0) return `#### ${path}\n(omitted: prompt budget spent)`;
    const shown = clip(text, Math.min(promptLimits.manifest, manifestBudget));
    manifestBudget -= shown.length;
    return `#### ${path}\n${fenced(shown)}`;
  });
  return [
    '## Repository',
    `repository: ${context.repository}`,
    `branch: ${context.branch}`,
    `commit: ${context.commit}`,
    `languages: ${context.languages.join(', ') || '(none detected)'}`,
    '',
    `### Files (${listed.length} shown${cut ? ', list cut' : ''}; path and size in bytes)`,
    listed.map((file) => `${file.path} (${file.size})`).join('\n') || '(none)',
    '',
    '### Manifests',
    manifests.join('\n\n') || '(none)',
    '',
    '### README',
    context.readme === null ? '(none)' : fenced(clip(context.readme, promptLimits.readme)),
  ].join('\n');
};

const planShape = '{"summary": string, "steps": string[], "files": string[]}';
const changeSetShape = '{"summary": string, "files": [{"path": string, "content": string | null}]}';

const commonRules = [
  'Answer with ONE JSON object and nothing else: no prose before or after it, no Markdown fence.',
  'Paths are relative to the repository root, separated by "/", never start with "/", never contain "..", never point into ".git/".',
];

const changeRules = [
  `"content" is the complete new content of the file (not a diff); null deletes the file.`,
  'List only files that change, each path once.',
  `At most ${maxChangedFiles} files, each at most ${maxFileBytes} bytes.`,
  '"summary" says in one or two sentences what the change does.',
];

const system = (shape: string, purpose: string, rules: string[]): string =>
  [
    'You are a careful software engineer changing a git repository for an automation service.',
    purpose,
    `The JSON object must have exactly this shape: ${shape}`,
    'Rules:',
    ...[...commonRules, ...rules].map((rule) => `- ${rule}`),
  ].join('\n');

const planPrompt = (task: Extract<AiTask, { kind: 'plan' }>) => ({
  system: system(planShape, 'Plan the change the request asks for, before any code is written.', [
    '"summary" is one sentence; "steps" are short, ordered actions; "files" are the paths you expect to create, change or delete.',
  ]),
  user: ['## Request', clip(task.prompt, promptLimits.request), '', contextSection(task.context)].join('\n'),
});

const changeSetPrompt = (task: Extract<AiTask, { kind: 'change_set' }>) => ({
  system: system(changeSetShape, 'Write the change the request asks for, following the plan.', changeRules),
  user: [
    '## Request',
    clip(task.prompt, promptLimits.request),
    '',
    '## Plan',
    task.plan.summary,
    ...task.plan.steps.map((step, index) => `${index + 1}. ${step}`),
    `Files: ${task.plan.files.join(', ') || '(none named)'}`,
    '',
    contextSection(task.context),
    '',
    '## Current contents of the files the plan touches',
    fileSections(Object.entries(task.files), promptLimits.fileContents, '(does not exist)') || '(none)',
  ].join('\n'),
});

const fixPrompt = (task: Extract<AiTask, { kind: 'fix' }>) => {
  const problems = task.report.problems.slice(0, promptLimits.problems).map((problem) => {
    const where = problem.line === null ? problem.path : `${problem.path}:${problem.line}`;
    return `- [${problem.check}] ${where}: ${problem.message}`;
  });
  if (task.report.problems.length > problems.length) problems.push(`- … and ${task.report.problems.length - problems.length} more`);
  return {
    system: system(changeSetShape, 'A change set failed verification. Return the complete corrected change set.', [
      ...changeRules,
      'Return every file that should change, not only the ones you fixed.',
      'To give up on a file, leave it out: it then keeps its original content.',
    ]),
    user: [
      '## Request',
      clip(task.prompt, promptLimits.request),
      '',
      '## Change set that failed verification',
      task.changes.summary,
      fileSections(
        task.changes.files.map((file) => [file.path, file.content]),
        promptLimits.fileContents,
        '(deleted by the change)',
      ) || '(no files)',
      '',
      '## Verification problems',
      problems.join('\n') || '(none listed)',
      '',
      '## Original contents of the changed files',
      fileSections(Object.entries(task.originals), promptLimits.originals, '(did not exist)') || '(none)',
    ].join('\n'),
  };
};

const remediationPrompt = (task: Extract<AiTask, { kind: 'remediation' }>) => ({
  system: system(changeSetShape, 'Fix one security finding in one file with the smallest safe change.', [
    ...changeRules,
    'For a secret: remove it from the code and read it from configuration (an environment variable) instead; never write a secret.',
    'For an unsafe pattern: replace it with a safe equivalent that keeps the behaviour.',
    'Return only the file(s) you change.',
  ]),
  user: [
    '## Finding',
    `${task.finding.type} ${task.finding.rule_id}: ${task.finding.title}`,
    task.finding.description,
    `Location: ${task.finding.location.path}${task.finding.location.line === null ? '' : `:${task.finding.location.line}`}`,
    task.finding.excerpt ? `Excerpt (redacted): ${task.finding.excerpt}` : '',
    '',
    '## File',
    fileSections([[task.file.path, task.file.content]], promptLimits.fileContents, '(missing)'),
  ].join('\n'),
});

const testsShape = '{"summary": string, "files": [{"path": string, "content": string, "cases": string[]}]}';

const frameworkNotes: Record<TestFramework, string> = {
  jest: 'Use the Jest globals (describe, test, expect) without importing them.',
  vitest: 'Import describe, test and expect from "vitest".',
  'node:test': 'Import test from "node:test" and assert from "node:assert/strict"; write JavaScript, not TypeScript.',
  pytest:
    'Write plain pytest functions (def test_...) with bare assert statements; make the module under test importable from the test file (insert its folder into sys.path if needed).',
};

const moduleNote = (task: Extract<AiTask, { kind: 'tests' }>): string | null => {
  if (task.framework === 'pytest') return null;
  return task.moduleType === 'module'
    ? 'The package is an ES module package ("type": "module"): .js and .mjs files are ES modules (import them with their extension), .cjs files are CommonJS.'
    : 'The package is CommonJS: .js and .cjs files are CommonJS (require them), .mjs files are ES modules.';
};

const testsPrompt = (task: Extract<AiTask, { kind: 'tests' }>) => ({
  system: system(testsShape, `Write runnable ${task.framework} tests for the source files given.`, [
    `Every file is a new test file ${testFileConventions[task.framework]}; never change or repeat a source file.`,
    frameworkNotes[task.framework],
    ...(task.framework === 'pytest' ? [] : ['Import the code under test by its path relative to the test file.']),
    'Test the behaviour the sources show; no network, no real credentials, no files written outside a temporary folder, no dependency beyond the framework and what the sources already use.',
    '"cases" lists the exact name of every test the file declares (the title given to test/it, or the pytest function name), in file order.',
    `At most ${maxTestFiles} files, each at most ${maxTestFileBytes} bytes; keep tests short so the whole answer fits.`,
    '"summary" says in one or two sentences what the tests cover.',
  ]),
  user: [
    '## Framework',
    task.framework,
    ...[moduleNote(task)].filter((note): note is string => note !== null),
    '',
    '## Instructions',
    task.instructions === null || task.instructions.trim() === ''
      ? '(none: cover the public behaviour of each source)'
      : clip(task.instructions, promptLimits.request),
    '',
    `## Sources (${task.sources.length} file${task.sources.length === 1 ? '' : 's'})`,
    fileSections(
      task.sources.map((source) => [source.path, source.content]),
      promptLimits.fileContents,
      '(missing)',
    ) || '(none)',
  ].join('\n'),
});

export const renderPrompt = (task: AiTask): { system: string; user: string } => {
  switch (task.kind) {
    case 'review':
      return reviewPrompt(task);
    case 'tests':
      return testsPrompt(task);
    case 'remediation':
      return remediationPrompt(task);
    case 'plan':
      return planPrompt(task);
    case 'change_set':
      return changeSetPrompt(task);
    case 'fix':
      return fixPrompt(task);
  }
};

/** A cap on the answer's length, per task, unless configured. */
export const defaultMaxOutputTokens = (task: AiTask): number => (task.kind === 'plan' ? 4_096 : 8_192);
