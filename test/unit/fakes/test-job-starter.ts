import type { TestJob } from '../../../functions/core/testing/test-records';

/** Records the test jobs the use cases start; `failStart` makes start throw (after recording). */
export const fakeTestJobStarter = () => {
  const started: TestJob[] = [];
  const behaviour = { failStart: false };
  return {
    async start(job: TestJob): Promise<void> {
      started.push(structuredClone(job));
      if (behaviour.failStart) throw new Error('Invoke failed: service unavailable');
    },
    started,
    behaviour,
  };
};
