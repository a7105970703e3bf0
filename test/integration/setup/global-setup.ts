import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { installNetworkFence, withFencePreload } from '../../support/network-fence';
import { startChildRuntime } from '../support/child-runtime';

/**
 * Starts the real local runtime (`bin/start.ts`, in memory, on a free port) once for the
 * integration tier, exactly as `npm start` would, and tells the tests where it is.
 * Webhook retries run at 1/100 of their real delays (LOCAL_TIME_SCALE), so the whole schedule
 * of 2 h 36 min takes about 94 s.
 */
export default async (): Promise<void> => {
  const dataDir = await mkdtemp(join(tmpdir(), 'pas-it-'));
  // The network fence in this process and in every node process started from here on (the runtime,
  // the CLIs, the runtimes tests restart), all recording what they refuse in one file, which the
  // global teardown reads. Only the tests set this: `npm start` runs unfenced.
  process.env.NETWORK_FENCE_LOG = join(dataDir, 'network-fence.log');
  process.env.NODE_OPTIONS = withFencePreload(process.env.NODE_OPTIONS);
  installNetworkFence();
  const runtime = await startChildRuntime(dataDir, {
    IN_MEMORY: '1',
    RATE_LIMIT_PER_SECOND: '20',
    RATE_LIMIT_BURST: '100',
    LOCAL_TIME_SCALE: '0.01',
    // Deployment health deadlines and the state machines' waits, scaled by a setting of their own.
    LOCAL_WAIT_SCALE: '0.01',
    // A test attempt (POST /webhooks/{id}/test) to a silent receiver ends after 2 s instead of 10 s.
    LOCAL_WEBHOOK_TEST_TIMEOUT_MS: '2000',
    // aws-lambda targets: one live-mode function and no test-mode one, so a test key may deploy to
    // no function at all (test mode never touches live infrastructure). Whatever the shell says.
    DEPLOY_LAMBDA_TARGETS: 'greeter',
    DEPLOY_LAMBDA_TEST_TARGETS: '',
    // No Lambda call ever leaves this machine: one would be refused on a closed loopback port.
    AWS_ENDPOINT_URL_LAMBDA: 'http://127.0.0.1:9',
  });
  process.env.IT_API_URL = runtime.apiUrl;
  process.env.IT_DATA_DIR = dataDir;
  (globalThis as { localRuntime?: typeof runtime }).localRuntime = runtime;
};
