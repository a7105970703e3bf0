import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, type Metafile } from 'esbuild';
import { shimmedBuiltins } from '../../lib/constructs/builtin-modules';
import { filesLoadedAtImport, functionBuildOptions } from '../../lib/constructs/function-bundle';
import { lastLineOfLambdaNode } from './lambda-node-process';

const projectRoot = fileURLToPath(new URL('../..', import.meta.url));
const entryOf = (handler: string): string => join(projectRoot, 'functions', 'handlers', `${handler}.ts`);

/** A handler's bundle as the stack builds it: every file's text (index.mjs and its chunks), and esbuild's account of them. */
const built = async (handler: string): Promise<{ text: string; metafile: Metafile }> => {
  const result = await build({
    ...functionBuildOptions,
    absWorkingDir: projectRoot,
    entryPoints: [entryOf(handler)],
    outdir: join(projectRoot, 'bundle'),
    metafile: true,
    write: false,
  });
  return { text: result.outputFiles.map((file) => file.text).join('\n'), metafile: result.metafile };
};

const bundleOf = async (handler: string): Promise<string> => (await built(handler)).text;

/** Which of `texts` the handler's bundle holds (a list of booleans: a failure names the text, not the whole bundle). */
const holds = async (handler: string, texts: string[]): Promise<Record<string, boolean>> => {
  const bundle = await bundleOf(handler);
  return Object.fromEntries(texts.map((text) => [text, bundle.includes(text)]));
};

// Every schema a bundle carries is built at import; a route's bundle carries its own (docs/performance.md, eighth pass).
describe("a function's bundle carries the request schemas of its own route, not its neighbours'", () => {
  it("the webhook routes: each its own body, the test route none of the others'", async () => {
    const bodies = ['Where events are POSTed', 'Seconds the previous secret keeps signing', 'Failed and skipped deliveries created'];
    expect(await holds('webhooks/test', bodies)).toEqual({
      'Where events are POSTed': false,
      'Seconds the previous secret keeps signing': false,
      'Failed and skipped deliveries created': false,
    });
    expect(await holds('webhooks/create', bodies)).toEqual({
      'Where events are POSTed': true,
      'Seconds the previous secret keeps signing': false,
      'Failed and skipped deliveries created': false,
    });
  });

  it('projects and tests: creating carries no update check, generating no run body', async () => {
    const check = 'must change at least one of';
    expect(await holds('projects/create', [check])).toEqual({ [check]: false });
    expect(await holds('projects/update', [check])).toEqual({ [check]: true });
    const runBody = "Run the repository's own tests";
    expect(await holds('testing/generate', [runBody])).toEqual({ [runBody]: false });
    expect(await holds('testing/run', [runBody])).toEqual({ [runBody]: true });
  });

  it("reads carry no list query; a list carries its own and not its neighbour list's", async () => {
    const page = 'Page number, from 1';
    const deliveryFilter = 'Only deliveries of this event type';
    expect(await holds('webhooks/get', [page, deliveryFilter])).toEqual({ [page]: false, [deliveryFilter]: false });
    expect(await holds('webhooks/list', [page, deliveryFilter])).toEqual({ [page]: true, [deliveryFilter]: false });
    expect(await holds('webhooks/deliveries-list', [page, deliveryFilter])).toEqual({ [page]: true, [deliveryFilter]: true });
  });
});

// The JSON body checks load only where a body is read: a POST refuses one
// it does not take (`refusesBody`), while a GET or DELETE function starts without them.
describe("the JSON body checks are in a write's bundle, never a read's", () => {
  const bodyChecks = ['The body is not valid JSON.', 'Send the body as JSON with'];

  it('GET and DELETE functions carry neither the body parser nor the body checks', async () => {
    for (const handler of ['projects/get', 'projects/delete', 'workflows/list', 'webhooks/get']) {
      expect([handler, await holds(handler, bodyChecks)]).toEqual([
        handler,
        { 'The body is not valid JSON.': false, 'Send the body as JSON with': false },
      ]);
    }
  });

  it('a POST that takes no body (cancel) carries them, to refuse a body it does not take; so does one with a body', async () => {
    for (const handler of ['workflows/cancel', 'projects/create']) {
      expect([handler, await holds(handler, bodyChecks)]).toEqual([
        handler,
        { 'The body is not valid JSON.': true, 'Send the body as JSON with': true },
      ]);
    }
  });
});

describe('what a cold start loads', () => {
  const facades = shimmedBuiltins.flatMap((name) => [name, `node:${name}`]);

  it("no file of a bundle imports a built-in a shim stands for: node's facade of each would read every export (undici for http)", async () => {
    for (const handler of ['projects/get', 'workflows/create', 'webhooks/test', 'oauth/token', 'workers/dispatch']) {
      const { metafile } = await built(handler);
      const imported = Object.values(metafile.outputs).flatMap((output) => output.imports.filter((i) => i.external).map((i) => i.path));
      expect([handler, imported.filter((path) => facades.includes(path))]).toEqual([handler, []]);
      const shims = Object.keys(metafile.inputs).filter((path) => path.includes('/builtin-module-shims/'));
      expect([handler, shims.some((path) => path.endsWith('/https.mjs')), shims.some((path) => path.endsWith('/http.cjs'))]).toEqual([
        handler,
        true,
        true,
      ]);
    }
  });

  it("node's http module is loaded by the first plain-http call, not at import, in a read and in a write alike", async () => {
    for (const handler of ['projects/get', 'projects/create', 'workflows/create', 'deployments/create']) {
      const { metafile } = await built(handler);
      const loadedInputs = filesLoadedAtImport(metafile).flatMap((path) => Object.keys(metafile.outputs[path]?.inputs ?? {}));
      expect([handler, loadedInputs.filter((input) => input.endsWith('/builtin-module-shims/http.cjs'))]).toEqual([handler, []]);
    }
  });

  it("the SDK's other credential providers and the clients they start are chunks a cold start does not read", async () => {
    const { metafile } = await built('projects/get');
    const packagesIn = (paths: string[]) =>
      new Set(
        paths
          .flatMap((path) => Object.keys(metafile.outputs[path]?.inputs ?? {}))
          .map((input) => /node_modules\/(@[^/]+\/[^/]+|[^/]+)/.exec(input)?.[1]),
      );
    const loaded = packagesIn(filesLoadedAtImport(metafile));
    const deployed = packagesIn(Object.keys(metafile.outputs));
    const lazy = [
      '@aws-sdk/credential-provider-sso',
      '@aws-sdk/credential-provider-ini',
      '@aws-sdk/credential-provider-process',
      '@aws-sdk/nested-clients',
    ];
    expect(lazy.filter((name) => loaded.has(name))).toEqual([]);
    expect(lazy.filter((name) => deployed.has(name))).toEqual(lazy);
    expect(loaded.has('@aws-sdk/client-dynamodb')).toBe(true);
  });

  // On Lambda's node line where `npm run bench:node` fetched it (CI does, before the tests): node 22's
  // facade of http loads undici, node 20's does not.
  it('a bundle so built imports and answers its first request, without loading undici', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pas-bundle-'));
    try {
      await build({ ...functionBuildOptions, absWorkingDir: projectRoot, entryPoints: [entryOf('workflows/create')], outdir: dir });
      const event = {
        version: '2.0',
        routeKey: 'POST /v1/workflows',
        rawPath: '/v1/workflows',
        rawQueryString: '',
        headers: { host: 'api.invalid' },
        requestContext: {
          requestId: 'first',
          http: { method: 'POST', path: '/v1/workflows', sourceIp: '127.0.0.1' },
          timeEpoch: Date.now(),
        },
        isBase64Encoded: false,
      };
      const script = [
        `const { handler } = await import(${JSON.stringify(pathToFileURL(join(dir, 'index.mjs')).href)});`,
        `const response = await handler(${JSON.stringify(event)}, { awsRequestId: 'first', getRemainingTimeInMillis: () => 10000 });`,
        "console.log(JSON.stringify({ status: response.statusCode, body: JSON.parse(response.body), undici: process.moduleLoadList.some((m) => m.includes('undici')) }));",
      ].join('\n');
      const answered = await lastLineOfLambdaNode(['--input-type=module', '-e', script], {
        TABLE_NAME: 'table',
        WORKFLOW_STATE_MACHINE_ARN: 'arn:aws:states:us-east-1:000000000000:stateMachine:workflows',
        POWERTOOLS_METRICS_DISABLED: 'true',
      });
      expect(answered).toMatchObject({ status: 401, body: { error: { code: 'unauthorized' } }, undici: false });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
