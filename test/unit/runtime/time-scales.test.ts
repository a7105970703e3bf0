import { stepDeps } from '../../../functions/handlers/deployment-steps/step-deps';
import { delayScaleFromEnvironment, waitScaleFromEnvironment } from '../../../functions/adapters/runtime/webhook-runtime';

describe('local time scales', () => {
  it('LOCAL_TIME_SCALE scales webhook retry delays only; other waits keep real time unless LOCAL_WAIT_SCALE says', () => {
    expect(delayScaleFromEnvironment({ LOCAL_TIME_SCALE: '0.01' })).toBe(0.01);
    expect(waitScaleFromEnvironment({ LOCAL_TIME_SCALE: '0.01' })).toBe(1);
    expect(waitScaleFromEnvironment({ LOCAL_TIME_SCALE: '0.01', LOCAL_WAIT_SCALE: '0.5' })).toBe(0.5);
    expect(delayScaleFromEnvironment({ LOCAL_WAIT_SCALE: '0.5' })).toBe(1);
    expect([delayScaleFromEnvironment({ LOCAL_TIME_SCALE: 'fast' }), waitScaleFromEnvironment({ LOCAL_WAIT_SCALE: '-1' })]).toEqual([1, 1]);
  });

  it('a deployment health deadline of 300 s stays 300 s under LOCAL_TIME_SCALE=0.01', () => {
    const saved = { ...process.env };
    Object.assign(process.env, { TABLE_NAME: 'unused', LOCAL_TIME_SCALE: '0.01' });
    delete process.env.LOCAL_WAIT_SCALE;
    try {
      expect(stepDeps().timeScale).toBe(1);
      process.env.LOCAL_WAIT_SCALE = '0.01';
      expect(stepDeps().timeScale).toBe(0.01);
    } finally {
      process.env = saved;
    }
  });
});
