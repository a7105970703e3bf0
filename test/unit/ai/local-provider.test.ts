import { localModel, localProvider, requestedFiles } from '../../../functions/adapters/ai/local-provider';
import { AiProviderError } from '../../../functions/core/ai/provider';
import { smokeTests } from '../../../functions/engines/testing/smoke-tests';
import { changes, changeSetTask, fixTask, planTask } from './sample-tasks';

const provider = localProvider();

const prompt = [
  '',
  '  Add a greeting module  ',
  'Write these files:',
  '```ts src/greet.ts',
  'export const greet = (name: string) => `hi ${name}`;',
  '```',
  '```js path=lib/util.js',
  'module.exports = 1;',
  '```',
  '```docs/guide.md',
  '# Guide',
  '',
  '```',
  '```delete path=old.txt',
  '```',
  '```delete legacy/x.ts',
  '```',
  'A sample that is not a file:',
  '```ts',
  'const sample = 1;',
  '```',
  '```ts ../outside.ts',
  'nope',
  '```',
].join('\n');

describe('local provider', () => {
  it('turns fenced blocks that name a path into files with exactly their content, and delete blocks into deletions', () => {
    expect(requestedFiles(prompt)).toEqual([
      { path: 'src/greet.ts', content: 'export const greet = (name: string) => `hi ${name}`;\n' },
      { path: 'lib/util.js', content: 'module.exports = 1;\n' },
      { path: 'docs/guide.md', content: '# Guide\n\n' },
      { path: 'old.txt', content: null },
      { path: 'legacy/x.ts', content: null },
    ]);
  });

  it('keeps a longer fence open across inner fences, and lets a later block for the same path win', () => {
    const nested = [
      '````md README.md',
      '```sh',
      'npm test',
      '```',
      '````',
      '```ts src/a.ts',
      'one',
      '```',
      '```ts src/a.ts',
      'two',
      '```',
    ].join('\n');
    expect(requestedFiles(nested)).toEqual([
      { path: 'README.md', content: '```sh\nnpm test\n```\n' },
      { path: 'src/a.ts', content: 'two\n' },
    ]);
  });

  it('plans from the prompt and the context', async () => {
    const { output } = await provider.run(planTask(prompt));
    expect(output).toEqual({
      summary: 'Add a greeting module',
      steps: [
        'Read package.json',
        'Apply the requested change to src/greet.ts, lib/util.js, docs/guide.md',
        'Delete old.txt, legacy/x.ts',
        'Verify changed files',
      ],
      files: ['src/greet.ts', 'lib/util.js', 'docs/guide.md', 'old.txt', 'legacy/x.ts'],
    });
  });

  it('writes the change set from the blocks', async () => {
    const { output } = await provider.run(changeSetTask(prompt));
    expect(output.summary).toBe('Write src/greet.ts, lib/util.js, docs/guide.md; delete old.txt, legacy/x.ts');
    expect(output.files).toEqual(requestedFiles(prompt));
  });

  it('falls back to AUTOMATION.md quoting the prompt and the plan steps', async () => {
    const { output } = await provider.run(changeSetTask('Make the app friendlier\n\nPlease.'));
    expect(output).toEqual({
      summary: 'Record the request in AUTOMATION.md',
      files: [
        {
          path: 'AUTOMATION.md',
          content:
            '# Automation request\n\n> Make the app friendlier\n>\n> Please.\n\n## Plan\n\n1. Read package.json\n2. Write src/a.ts\n',
        },
      ],
    });
    const planned = await provider.run(planTask('Make the app friendlier'));
    expect(planned.output.files).toEqual(['AUTOMATION.md']);
  });

  it('fixes by reverting the files the problems name', async () => {
    const { output } = await provider.run(fixTask());
    expect(output.files).toEqual(changes.files.filter((file) => file.path !== 'src/b.ts'));
    expect(output.summary).toMatch(/^Reverted src\/b\.ts/);
  });

  it('leaves the change set as it is when no problem names one of its files', async () => {
    const { output } = await provider.run(
      fixTask({ passed: false, checks: [], problems: [{ check: 'lint', path: 'other.ts', line: null, message: 'x' }] }),
    );
    expect(output.files).toEqual(changes.files);
  });

  it('is deterministic: the same task gives a byte-identical result', async () => {
    for (const task of [planTask(prompt), changeSetTask(prompt), changeSetTask('Just a note'), fixTask()]) {
      const [first, second] = await Promise.all([provider.run(task), localProvider().run(task)]);
      expect(JSON.stringify(second)).toBe(JSON.stringify(first));
    }
  });

  it('answers a tests task with smoke tests next to each source, deterministically', async () => {
    const task = {
      kind: 'tests' as const,
      framework: 'jest' as const,
      instructions: null,
      moduleType: 'commonjs' as const,
      sources: [{ path: 'lib/add.js', content: 'exports.add = (a, b) => a + b;\nexports.NAME = "add";\n' }],
    };
    const writer = localProvider({ writeTests: smokeTests });
    const result = await writer.run(task);
    expect(result.output.files.map((file) => [file.path, file.cases])).toEqual([
      ['lib/add.generated.test.js', ['loads lib/add.js', 'NAME is defined', 'add is a function', 'add can be called']],
    ]);
    expect(result.output.summary).toBe('Wrote 1 jest smoke test file with 4 cases (module loads, exports exist and are callable)');
    expect(result.usage.output_tokens).toBe(Math.ceil(JSON.stringify(result.output).length / 4));
    expect(JSON.stringify(await localProvider({ writeTests: smokeTests }).run(task))).toBe(JSON.stringify(result));
  });

  it('refuses a tests task where no test writer was given (every function but the testing worker)', async () => {
    const task = {
      kind: 'tests' as const,
      framework: 'jest' as const,
      instructions: null,
      moduleType: 'commonjs' as const,
      sources: [{ path: 'lib/add.js', content: 'exports.add = (a, b) => a + b;\n' }],
    };
    await expect(provider.run(task)).rejects.toThrow(
      new AiProviderError('The local provider writes tests only in the function that generates them'),
    );
  });

  it('reports a non-zero token estimate, its name and model', async () => {
    const result = await provider.run(changeSetTask(prompt));
    expect(result.usage.input_tokens).toBeGreaterThan(0);
    expect(result.usage.output_tokens).toBe(Math.ceil(JSON.stringify(result.output).length / 4));
    expect(result).toMatchObject({ provider: 'local', model: localModel });
  });
});
