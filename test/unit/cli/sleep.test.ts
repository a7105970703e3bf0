import { getEventListeners } from 'node:events';
import { sleep } from '../../../bin/api/output';

describe('the CLI sleep between polls', () => {
  it('leaves no abort listener behind once its time has passed, however often it is called on one signal', async () => {
    const controller = new AbortController();
    for (let poll = 0; poll < 15; poll += 1) await sleep(1, controller.signal);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('ends at once when the signal aborts, and at once when it had already', async () => {
    const controller = new AbortController();
    const pending = sleep(60_000, controller.signal);
    controller.abort();
    await expect(pending).resolves.toBeUndefined();
    await expect(sleep(60_000, controller.signal)).resolves.toBeUndefined();
  });
});
