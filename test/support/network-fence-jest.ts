import { installNetworkFence, readFenceLog } from './network-fence';

/**
 * In every test file of every tier (jest's setupFilesAfterEnv): the network fence, unless the
 * process already has it (`npm test` preloads it), and a check after the file's tests that nothing
 * the file ran tried to leave loopback, even where the code under test swallowed the refusal. Where
 * NETWORK_FENCE_LOG names the run's record (the integration tier), it also holds what the local
 * runtime and the CLIs refused while the file ran.
 */
const state = installNetworkFence();
const logFile = process.env.NETWORK_FENCE_LOG;
const refusedSoFar = (): string[] => (logFile ? readFenceLog(logFile) : state.refused);
const before = refusedSoFar().length;

afterAll(() => {
  const refused = refusedSoFar().slice(before);
  if (refused.length > 0)
    throw new Error(`network fence: attempts to reach beyond loopback were refused:\n${refused.map((line) => `  ${line}`).join('\n')}`);
});
