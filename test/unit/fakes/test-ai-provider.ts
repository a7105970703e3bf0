import type { AiAnswer, AiProvider, AiResult, AiTask, GeneratedTests } from '../../../functions/core/ai/provider';

export type TestsTask = Extract<AiTask, { kind: 'tests' }>;

export const generatedAnswer = (overrides: Partial<GeneratedTests> = {}): GeneratedTests => ({
  summary: 'Covers add and mul',
  files: [
    {
      path: '__tests__/math.generated.test.js',
      content: "const { add } = require('../src/math');\ntest('adds', () => expect(add(1, 2)).toBe(3));\n",
      cases: ['adds'],
    },
  ],
  ...overrides,
});

/**
 * An AiProvider that records the `tests` tasks it is given and answers `answer` (an Error is thrown),
 * with fixed usage and model.
 */
export const fakeAiProvider = (name = 'anthropic', answer: GeneratedTests | Error = generatedAnswer()) => {
  const tasks: TestsTask[] = [];
  const behaviour: { answer: GeneratedTests | Error } = { answer };
  const provider: AiProvider = {
    name,
    async run<T extends AiTask>(task: T): Promise<AiResult<AiAnswer<T>>> {
      if (task.kind !== 'tests') throw new Error(`the fake provider answers tests tasks only, not ${task.kind}`);
      tasks.push(structuredClone(task as TestsTask));
      if (behaviour.answer instanceof Error) throw behaviour.answer;
      const output = structuredClone(behaviour.answer) as unknown as AiAnswer<T>;
      return { output, usage: { input_tokens: 1200, output_tokens: 340 }, provider: name, model: `${name}-model-1` };
    },
  };
  return { ...provider, tasks, behaviour };
};
