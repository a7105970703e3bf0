/**
 * The `local` AI provider: an offline, deterministic stand-in for a model. It does not think; it
 * produces fixed-form output from its input, so the same task always gives a byte-identical
 * answer (no clock, no randomness, no network). It lets the workflow run end to end in tests and in
 * deployments without model access:
 *
 * - plan: summary = the prompt's first non-empty line; steps read the manifests, apply the change
 *   to the files the change set would touch, and verify them.
 * - change_set: every fenced code block in the prompt whose info string names a path (```` ```ts src/a.ts ````,
 *   ```` ```js path=src/a.js ````, ```` ```src/a.ts ````) becomes that file with exactly the block's
 *   content; ```` ```delete path=x ```` (or ```` ```delete x ````) deletes x. A prompt without such
 *   blocks yields one AUTOMATION.md quoting the prompt and the plan's steps.
 * - fix: drops from the change set every file the verification problems name, so those files keep
 *   their original content.
 * - remediation: replaces the flagged line with a comment saying what was removed.
 * - tests: writes runnable smoke tests from the exports it finds (module loads, exported functions
 *   exist and are callable, classes are classes, other exports are defined), one test file next to
 *   each source; see engines/testing/smoke-tests. A real provider writes behavioural tests.
 *
 * Usage is an estimate (4 characters a token) of the prompt a real model would have been given and
 * of the answer, so cost accounting sees non-zero, stable numbers.
 */
import type { AiAnswer, AiProvider, AiResult, AiTask, GeneratedTests } from '../../core/ai/provider';
import { isSafeRelativePath, maxChangedFiles, renderPrompt, validateAnswer } from '../../core/ai/tasks';
import { smokeTests } from '../../engines/testing/smoke-tests';
import type { ChangeSet, FileChange, Plan, RepositoryContext } from '../../core/workflows/stage-data';

export const localModel = 'local-deterministic-1';
const fallbackFile = 'AUTOMATION.md';

const stripQuotes = (token: string): string => token.replace(/^(["'])(.*)\1$/, '$2');

const looksLikePath = (token: string): boolean => token.includes('/') || /\.[A-Za-z0-9_-]+$/.test(token);

const pathOf = (token: string | undefined): string | null => {
  if (token === undefined) return null;
  const path = stripQuotes(token.startsWith('path=') ? token.slice('path='.length) : token).replace(/^(\.\/)+/, '');
  return isSafeRelativePath(path) ? path : null;
};

/** What a fence's info string asks for: write a path, delete a path, or nothing (a plain code sample). */
const targetOf = (info: string): { path: string; remove: boolean } | null => {
  const tokens = info.split(/\s+/).filter((token) => token !== '');
  if (tokens[0]?.toLowerCase() === 'delete') {
    const path = pathOf(tokens[1]);
    return path === null ? null : { path, remove: true };
  }
  const named = tokens.find((token) => token.startsWith('path=')) ?? tokens.find(looksLikePath);
  const path = pathOf(named);
  return path === null ? null : { path, remove: false };
};

/** The files the prompt's fenced blocks write or delete, in order of first mention; a later block for the same path wins. */
export const requestedFiles = (prompt: string): FileChange[] => {
  const lines = prompt.replace(/\r\n/g, '\n').split('\n');
  const files = new Map<string, string | null>();
  let index = 0;
  while (index < lines.length) {
    const opening = /^ {0,3}(`{3,}|~{3,})(.*)$/.exec(lines[index] ?? '');
    index += 1;
    if (!opening) continue;
    const fence = opening[1] ?? '```';
    const info = (opening[2] ?? '').trim();
    if (fence.startsWith('`') && info.includes('`')) continue;
    const start = index;
    while (index < lines.length) {
      const closing = /^ {0,3}(`{3,}|~{3,})\s*$/.exec(lines[index] ?? '')?.[1] ?? '';
      if (closing[0] === fence[0] && closing.length >= fence.length) break;
      index += 1;
    }
    const body = lines.slice(start, index);
    index += 1;
    const target = targetOf(info);
    if (target) files.set(target.path, target.remove ? null : body.length > 0 ? `${body.join('\n')}\n` : '');
  }
  return [...files].slice(0, maxChangedFiles).map(([path, content]) => ({ path, content }));
};

const listed = (paths: string[], max = 10): string =>
  paths.length <= max ? paths.join(', ') : `${paths.slice(0, max).join(', ')} and ${paths.length - max} more`;

const firstLine = (prompt: string): string =>
  (prompt.split('\n').find((line) => line.trim() !== '') ?? 'Apply the requested change').trim().slice(0, 200);

const plannedFiles = (prompt: string): FileChange[] => {
  const files = requestedFiles(prompt);
  return files.length > 0 ? files : [{ path: fallbackFile, content: '' }];
};

const plan = (prompt: string, context: RepositoryContext): Plan => {
  const files = plannedFiles(prompt);
  const written = files.filter((file) => file.content !== null).map((file) => file.path);
  const deleted = files.filter((file) => file.content === null).map((file) => file.path);
  const manifests = Object.keys(context.manifests).sort();
  return {
    summary: firstLine(prompt),
    steps: [
      ...(manifests.length > 0 ? manifests.map((path) => `Read ${path}`) : [`Read the repository layout (${context.files.length} files)`]),
      ...(written.length > 0 ? [`Apply the requested change to ${listed(written)}`] : []),
      ...(deleted.length > 0 ? [`Delete ${listed(deleted)}`] : []),
      'Verify changed files',
    ],
    files: files.map((file) => file.path),
  };
};

const automationNote = (prompt: string, steps: string[]): string =>
  [
    '# Automation request',
    '',
    ...prompt
      .replace(/\r\n/g, '\n')
      .trim()
      .split('\n')
      .map((line) => `> ${line}`.trimEnd()),
    '',
    '## Plan',
    '',
    ...(steps.length > 0 ? steps.map((step, index) => `${index + 1}. ${step}`) : ['(no steps)']),
    '',
  ].join('\n');

const changeSet = (prompt: string, planned: Plan): ChangeSet => {
  const files = requestedFiles(prompt);
  if (files.length === 0) {
    return {
      summary: `Record the request in ${fallbackFile}`,
      files: [{ path: fallbackFile, content: automationNote(prompt, planned.steps) }],
    };
  }
  const written = files.filter((file) => file.content !== null).map((file) => file.path);
  const deleted = files.filter((file) => file.content === null).map((file) => file.path);
  const parts = [written.length > 0 ? `write ${listed(written)}` : '', deleted.length > 0 ? `delete ${listed(deleted)}` : ''];
  const summary = parts.filter((part) => part !== '').join('; ');
  return { summary: summary.charAt(0).toUpperCase() + summary.slice(1), files };
};

const fix = (changes: ChangeSet, problemPaths: string[]): ChangeSet => {
  const named = new Set(problemPaths);
  const reverted = changes.files.filter((file) => named.has(file.path)).map((file) => file.path);
  const kept = changes.files.filter((file) => !named.has(file.path));
  const summary =
    reverted.length > 0
      ? `Reverted ${listed(reverted)} (named by verification problems); kept ${kept.length} changed file(s)`
      : 'No changed file is named by the verification problems; the change set is unchanged';
  return { summary, files: kept };
};

/** Line comment syntax by extension, for the remediation marker. */
const commentPrefix = (path: string): string => {
  const extension = path.slice(path.lastIndexOf('.') + 1).toLowerCase();
  if (
    ['py', 'rb', 'sh', 'bash', 'yml', 'yaml', 'toml', 'env', 'properties', 'r', 'pl'].includes(extension) ||
    path.endsWith('.env') ||
    !path.includes('.')
  )
    return '#';
  if (['sql', 'lua', 'hs'].includes(extension)) return '--';
  return '//';
};

/**
 * Fixed form: the flagged line is replaced by a comment saying what was removed and why, so the
 * finding is gone and the change is plain to review. A real provider writes a real fix.
 */
const remediation = (task: Extract<AiTask, { kind: 'remediation' }>): ChangeSet => {
  const lines = task.file.content.split('\n');
  const index = (task.finding.location.line ?? 0) - 1;
  if (index < 0 || index >= lines.length)
    return { summary: `No line ${task.finding.location.line ?? '?'} in ${task.file.path}`, files: [] };
  const indent = /^\s*/.exec(lines[index] ?? '')?.[0] ?? '';
  lines[index] =
    `${indent}${commentPrefix(task.file.path)} removed by automated remediation (${task.finding.rule_id}): ${task.finding.type === 'secrets' ? 'read this value from configuration' : 'rewrite this safely'}`;
  return {
    summary: `Remove the line flagged by ${task.finding.rule_id} in ${task.file.path}`,
    files: [{ path: task.file.path, content: lines.join('\n') }],
  };
};

const answer = (task: AiTask): Plan | ChangeSet | GeneratedTests => {
  switch (task.kind) {
    case 'tests':
      return smokeTests(task);
    case 'remediation':
      return remediation(task);
    case 'plan':
      return plan(task.prompt, task.context);
    case 'change_set':
      return changeSet(task.prompt, task.plan);
    case 'fix':
      return fix(
        task.changes,
        task.report.problems.map((problem) => problem.path),
      );
  }
};

const estimatedTokens = (text: string): number => Math.ceil(text.length / 4);

export const localProvider = (): AiProvider => ({
  name: 'local',
  async run<T extends AiTask>(task: T): Promise<AiResult<AiAnswer<T>>> {
    const output = validateAnswer(task, answer(task));
    const prompt = renderPrompt(task);
    return {
      output,
      usage: {
        input_tokens: estimatedTokens(prompt.system + prompt.user),
        output_tokens: estimatedTokens(JSON.stringify(output)),
      },
      provider: 'local',
      model: localModel,
    };
  },
});
