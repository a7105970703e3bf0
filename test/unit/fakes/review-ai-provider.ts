import type { AiAnswer, AiProvider, AiResult, AiTask } from '../../../functions/core/ai/provider';
import type { ReviewAnswer, ReviewTask } from '../../../functions/core/ai/review-task';
import { validateAnswer } from '../../../functions/core/ai/tasks';

/**
 * An AiProvider that records the `review` tasks it is given and answers each with the script's
 * answer for it (1-based request number); an Error is thrown. The answer passes the same shape
 * check a real provider's reply does.
 */
export const scriptedReviewProvider = (script: (task: ReviewTask, request: number) => ReviewAnswer | Error, name = 'anthropic') => {
  const tasks: ReviewTask[] = [];
  const provider: AiProvider = {
    name,
    async run<T extends AiTask>(task: T): Promise<AiResult<AiAnswer<T>>> {
      if (task.kind !== 'review') throw new Error(`the scripted provider answers review tasks only, not ${task.kind}`);
      const review = structuredClone(task) as ReviewTask;
      tasks.push(review);
      const answer = script(review, tasks.length);
      if (answer instanceof Error) throw answer;
      return {
        output: validateAnswer(task, structuredClone(answer)),
        usage: { input_tokens: 1000, output_tokens: 200 },
        provider: name,
        model: `${name}-model-1`,
      };
    },
  };
  return { provider, tasks };
};

export const answer = (overrides: Partial<ReviewAnswer> = {}): ReviewAnswer => ({
  summary: 'Looks reasonable.',
  verdict: 'approve',
  comments: [],
  ...overrides,
});
