import { AiProviderError, type AiTask, type TestFramework } from '../../../functions/core/ai/provider';
import {
  defaultMaxOutputTokens,
  isTestFilePath,
  maxChangedFiles,
  maxFileBytes,
  maxTestFileBytes,
  maxTestFiles,
  parseAnswer,
  promptLimits,
  renderPrompt,
} from '../../../functions/core/ai/tasks';
import { changeSetTask, fixTask, planTask, validChangeSetJson, validPlanJson } from './sample-tasks';

const changeTask = changeSetTask('Change a');
const answerWithFiles = (files: unknown) => JSON.stringify({ summary: 'x', files });

const rejection = (reply: string, task: Parameters<typeof parseAnswer>[0] = changeTask): Error => {
  try {
    parseAnswer(task, reply);
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected parseAnswer to throw');
};

describe('parseAnswer', () => {
  it('accepts a plain JSON object, and drops keys the schema does not know', () => {
    expect(parseAnswer(planTask('p'), validPlanJson)).toEqual({
      summary: 'Add a greeting',
      steps: ['Write src/a.ts'],
      files: ['src/a.ts'],
    });
    const withExtra = JSON.stringify({ ...JSON.parse(validChangeSetJson), confidence: 0.9 });
    expect(parseAnswer(changeTask, withExtra)).toEqual(JSON.parse(validChangeSetJson));
  });

  it('tolerates a ```json fence and prose around the object', () => {
    expect(parseAnswer(changeTask, `\`\`\`json\n${validChangeSetJson}\n\`\`\``)).toEqual(JSON.parse(validChangeSetJson));
    expect(parseAnswer(changeTask, `Here it is:\n\`\`\`\n${validChangeSetJson}\n\`\`\`\nDone.`)).toEqual(JSON.parse(validChangeSetJson));
  });

  it('keeps file contents that themselves hold Markdown fences', () => {
    const content = '# Title\n\n```ts\nconst a = 1;\n```\n';
    const reply = `\`\`\`json\n${answerWithFiles([{ path: 'README.md', content }])}\n\`\`\``;
    expect(parseAnswer(changeTask, reply).files).toEqual([{ path: 'README.md', content }]);
  });

  it('accepts null content as a deletion', () => {
    expect(parseAnswer(changeTask, answerWithFiles([{ path: 'old.txt', content: null }])).files).toEqual([
      { path: 'old.txt', content: null },
    ]);
  });

  it.each([
    ['empty', ''],
    ['not JSON', 'I would change src/a.ts'],
    ['an array', '[1, 2]'],
    ['missing files', JSON.stringify({ summary: 'x' })],
    ['content a number', answerWithFiles([{ path: 'a.ts', content: 1 }])],
  ])('rejects an answer that is %s with AiProviderError', (_, reply) => {
    expect(rejection(reply)).toBeInstanceOf(AiProviderError);
  });

  it('names the field that is wrong', () => {
    expect(rejection(JSON.stringify({ summary: 'x', files: [{ path: 'a.ts' }] })).message).toMatch(/files\.0\.content/);
    expect(rejection(JSON.stringify({ steps: [], files: [] }), planTask('p')).message).toMatch(/summary/);
  });

  it.each(['../x', 'src/../../x', '/etc/passwd', '.git/config', 'sub/.GIT/hooks/pre-commit', 'a//b', 'a\\b', './a.ts', ''])(
    'rejects the unsafe path %j',
    (path) => {
      const error = rejection(answerWithFiles([{ path, content: 'x' }]));
      expect(error).toBeInstanceOf(AiProviderError);
      expect(error.message).toMatch(/files\.0\.path: must be a relative/);
    },
  );

  it('rejects the same path twice, too many files and too large a file', () => {
    expect(
      rejection(
        answerWithFiles([
          { path: 'a.ts', content: '1' },
          { path: 'a.ts', content: '2' },
        ]),
      ).message,
    ).toMatch(/each path once/);
    const many = Array.from({ length: maxChangedFiles + 1 }, (_, index) => ({ path: `f${index}.txt`, content: '' }));
    expect(rejection(answerWithFiles(many)).message).toMatch(/at most 200 files/);
    expect(rejection(answerWithFiles([{ path: 'big.txt', content: 'é'.repeat(maxFileBytes / 2 + 1) }])).message).toMatch(
      /files\.0\.content/,
    );
  });
});

describe('renderPrompt', () => {
  it('asks for one JSON object of the task shape and gives the request and repository context', () => {
    const { system, user } = renderPrompt(planTask('Add a greeting\nto the app'));
    expect(system).toMatch(/ONE JSON object/);
    expect(system).toContain('"steps": string[]');
    expect(user).toContain('Add a greeting\nto the app');
    expect(user).toContain('branch: main');
    expect(user).toContain('src/a.ts (30)');
    expect(user).toContain('{ "name": "app" }');
    expect(user).toContain('# App');
  });

  it('gives the change-set task the plan and the current file contents', () => {
    const { system, user } = renderPrompt(changeSetTask('Change a'));
    expect(system).toContain('"content": string | null');
    expect(user).toContain('1. Read package.json');
    expect(user).toContain('#### src/a.ts\n```\nexport const a = 1;\n```');
  });

  it('fences content holding backticks with a longer fence', () => {
    const { user } = renderPrompt(changeSetTask('Change docs', { 'README.md': '```sh\nnpm test\n```\n' }));
    expect(user).toContain('````\n```sh\nnpm test\n```\n````');
  });

  it('gives the fix task the failed change set, the problems and the originals', () => {
    const { system, user } = renderPrompt(fixTask());
    expect(system).toMatch(/failed verification/);
    expect(user).toContain('- [syntax] src/b.ts:1: Expression expected');
    expect(user).toContain('#### old.txt\n(deleted by the change)');
    expect(user).toContain('#### src/b.ts\n(did not exist)');
    expect(user).toContain('export const a = 1;');
  });

  it('stays bounded however large the input', () => {
    const huge = 'x'.repeat(1_000_000);
    const files = Object.fromEntries(Array.from({ length: 20 }, (_, index) => [`f${index}.txt`, huge]));
    const { user } = renderPrompt({ ...changeSetTask(huge, files) });
    expect(user.length).toBeLessThan(promptLimits.request + promptLimits.fileContents + 50_000);
    expect(user).toContain('(omitted: prompt budget spent)');
  });

  it('is deterministic', () => {
    expect(renderPrompt(fixTask())).toEqual(renderPrompt(fixTask()));
  });
});

describe('the tests task', () => {
  const testsTask = (
    framework: TestFramework,
    sources = [{ path: 'src/math.js', content: 'module.exports = { add: (a, b) => a + b };\n' }],
  ): Extract<AiTask, { kind: 'tests' }> => ({
    kind: 'tests',
    framework,
    instructions: 'Cover the edge cases of add',
    sources,
    moduleType: 'commonjs',
  });
  const testFile = (path: string, cases: unknown = ['adds two numbers']) => ({
    path,
    content: 'test("adds two numbers", () => {});\n',
    cases,
  });
  const answer = (...files: unknown[]) => JSON.stringify({ summary: 'Tests for add', files });

  it('accepts an answer of test files with their cases, in each framework’s conventions', () => {
    const good: Array<[TestFramework, string]> = [
      ['jest', 'src/math.test.js'],
      ['jest', 'src/math.test.ts'],
      ['jest', 'src/__tests__/math.js'],
      ['vitest', 'src/math.test.mjs'],
      ['vitest', 'src/__tests__/deep/math.cjs'],
      ['node:test', 'test/math.test.cjs'],
      ['pytest', 'tests/test_math.py'],
      ['pytest', 'math_test.py'],
    ];
    for (const [framework, path] of good) {
      expect(isTestFilePath(framework, path)).toBe(true);
      expect(parseAnswer(testsTask(framework), `\`\`\`json\n${answer(testFile(path))}\n\`\`\``)).toEqual({
        summary: 'Tests for add',
        files: [{ path, content: 'test("adds two numbers", () => {});\n', cases: ['adds two numbers'] }],
      });
    }
  });

  it.each<[TestFramework, string]>([
    ['jest', 'src/math.js'],
    ['jest', 'src/math.spec.tsx'],
    ['jest', 'src/math.test.py'],
    ['vitest', '__tests__/notes.md'],
    ['node:test', 'src/math.test.ts'],
    ['node:test', 'src/__tests__/math.js'],
    ['pytest', 'tests/math.py'],
    ['pytest', 'tests/test_math.js'],
  ])('refuses a %s file that is not a test file: %j', (framework, path) => {
    const error = rejection(answer(testFile(path)), testsTask(framework));
    expect(error).toBeInstanceOf(AiProviderError);
    expect(error.message).toMatch(new RegExp(`files\\.0\\.path: must be a ${framework} test file`));
  });

  it.each(['../math.test.js', '/abs/math.test.js', '.git/hooks/a.test.js', 'a//b.test.js', 'a\\b.test.js'])(
    'refuses the unsafe path %j',
    (path) => {
      expect(rejection(answer(testFile(path)), testsTask('jest')).message).toMatch(/files\.0\.path: must be a relative/);
    },
  );

  it('refuses missing or empty cases, empty content, a path twice, too many files and too large a file', () => {
    const jest = testsTask('jest');
    expect(rejection(answer(testFile('a.test.js', [])), jest).message).toMatch(/files\.0\.cases: must name at least one test/);
    expect(rejection(answer({ path: 'a.test.js', content: 'x' }), jest).message).toMatch(/files\.0\.cases/);
    expect(rejection(answer(testFile('a.test.js', [''])), jest).message).toMatch(/files\.0\.cases\.0/);
    expect(rejection(answer({ ...testFile('a.test.js'), content: '' }), jest).message).toMatch(/files\.0\.content/);
    expect(rejection(answer(testFile('a.test.js'), testFile('a.test.js')), jest).message).toMatch(/each path once/);
    const many = Array.from({ length: maxTestFiles + 1 }, (_, index) => testFile(`t${index}.test.js`));
    expect(rejection(answer(...many), jest).message).toMatch(/at most 50 files/);
    expect(rejection(answer({ ...testFile('a.test.js'), content: 'x'.repeat(maxTestFileBytes + 1) }), jest).message).toMatch(
      /files\.0\.content: must be at most/,
    );
  });

  it('renders a prompt with the framework, the module type, the instructions and the sources, bounded', () => {
    const { system, user } = renderPrompt(testsTask('jest'));
    expect(system).toContain('"cases": string[]');
    expect(system).toContain('Write runnable jest tests');
    expect(system).toContain('named *.test.js, *.test.ts, *.test.mjs or *.test.cjs');
    expect(user).toContain('## Framework\njest\nThe package is CommonJS');
    expect(user).toContain('Cover the edge cases of add');
    expect(user).toContain('#### src/math.js\n```\nmodule.exports = { add: (a, b) => a + b };\n```');
    expect(renderPrompt(testsTask('pytest')).user).not.toContain('CommonJS');
    expect(renderPrompt({ ...testsTask('pytest'), instructions: null }).user).toContain(
      '(none: cover the public behaviour of each source)',
    );

    const huge = Array.from({ length: 20 }, (_, index) => ({ path: `src/f${index}.js`, content: 'x'.repeat(100_000) }));
    const bounded = renderPrompt(testsTask('jest', huge)).user;
    expect(bounded.length).toBeLessThan(promptLimits.fileContents + 10_000);
    expect(bounded).toContain('(omitted: prompt budget spent)');
    expect(defaultMaxOutputTokens(testsTask('jest'))).toBe(8_192);
  });
});
