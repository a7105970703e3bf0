import { parseArgs } from 'node:util';
import { runSmoke } from './smoke-run';

/**
 * `npm run smoke -- --api-url <ApiUrl> [--receiver-url <url>] [--repository <git url>] [--ai-provider bedrock]`
 * with the API key in SMOKE_API_KEY (never on the command line: shells keep their history).
 * Exits 1 when a step failed.
 */
const { values } = parseArgs({
  options: {
    'api-url': { type: 'string' },
    'receiver-url': { type: 'string' },
    repository: { type: 'string', default: 'https://github.com/octocat/Hello-World.git' },
    'ai-provider': { type: 'string', default: 'bedrock' },
    'timeout-minutes': { type: 'string', default: '20' },
  },
});

const apiUrl = values['api-url'];
const apiKey = process.env.SMOKE_API_KEY;
if (!apiUrl || !apiKey) {
  console.error(
    'usage: SMOKE_API_KEY=<test key> npm run smoke -- --api-url <ApiUrl output> [--receiver-url <your receiver>] [--repository <git url>] [--ai-provider <name>]',
  );
  process.exit(2);
}

const results = await runSmoke({
  apiUrl,
  apiKey,
  repository: values.repository as string,
  receiverUrl: values['receiver-url'],
  aiProvider: values['ai-provider'] as string,
  timeoutMs: Number(values['timeout-minutes']) * 60_000,
});
const failed = results.filter((result) => !result.ok);
console.log(`\n${results.length - failed.length} passed, ${failed.length} failed`);
process.exit(failed.length > 0 ? 1 : 0);
