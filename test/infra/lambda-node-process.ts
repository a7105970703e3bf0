import { execFile } from 'node:child_process';
import { probeNode } from '../../bench/lambda-node';

/**
 * Runs node with `args` in a fresh process, on Lambda's node line where `npm run bench:node` fetched
 * it (CI does, before the tests), with what every function finds in Lambda besides `environment`:
 * a region and credentials. Answers the last line it printed, parsed as JSON.
 */
export const lastLineOfLambdaNode = (args: string[], environment: Record<string, string>, timeoutMs = 60_000): Promise<any> =>
  new Promise((resolve, reject) =>
    execFile(
      probeNode().path,
      args,
      {
        env: {
          PATH: process.env.PATH ?? '',
          AWS_REGION: 'us-east-1',
          AWS_ACCESS_KEY_ID: 'test',
          AWS_SECRET_ACCESS_KEY: 'test',
          // Nothing under test should reach for a service; were it to, it meets a closed loopback port.
          AWS_ENDPOINT_URL: 'http://127.0.0.1:9',
          ...environment,
        },
        timeout: timeoutMs,
      },
      (error, stdout, stderr) =>
        error
          ? reject(new Error(`${error.message}\n${stderr.slice(-2000)}`))
          : resolve(JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as unknown),
    ),
  );
