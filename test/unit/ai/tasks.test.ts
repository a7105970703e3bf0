import { AiProviderError } from '../../../functions/core/ai/provider';
import { maxChangedFiles, maxFileBytes, parseAnswer, promptLimits, renderPrompt } from '../../../functions/core/ai/tasks';
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
    expect(parseAnswer(planTask('p'), validPlanJson)).toEqual({ summary: 'Add a greeting', steps: ['Write src/a.ts'], files: ['src/a.ts'] });
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
    expect(parseAnswer(changeTask, answerWithFiles([{ path: 'old.txt', content: null }])).files).toEqual([{ path: 'old.txt', content: null }]);
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
    expect(rejection(answerWithFiles([{ path: 'a.ts', content: '1' }, { path: 'a.ts', content: '2' }])).message).toMatch(/each path once/);
    const many = Array.from({ length: maxChangedFiles + 1 }, (_, index) => ({ path: `f${index}.txt`, content: '' }));
    expect(rejection(answerWithFiles(many)).message).toMatch(/at most 200 files/);
    expect(rejection(answerWithFiles([{ path: 'big.txt', content: 'é'.repeat(maxFileBytes / 2 + 1) }])).message).toMatch(/files\.0\.content/);
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
