import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { functionBuildOptions } from '../../lib/constructs/function-bundle';

const projectRoot = fileURLToPath(new URL('../..', import.meta.url));

/** A handler's bundle as the stack builds it, as text. */
const bundleOf = async (handler: string): Promise<string> => {
  const result = await build({
    ...functionBuildOptions,
    absWorkingDir: projectRoot,
    entryPoints: [join(projectRoot, 'functions', 'handlers', `${handler}.ts`)],
    outfile: join(projectRoot, 'index.mjs'),
    write: false,
  });
  return result.outputFiles[0]?.text ?? '';
};

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

// The JSON body checks (middy's parser and ours) load only where a body is read: a POST refuses one
// it does not take (`refusesBody`), while a GET or DELETE function starts without them.
describe("the JSON body checks are in a write's bundle, never a read's", () => {
  const bodyChecks = ['Invalid or malformed JSON was provided', 'Send the body as JSON with'];

  it('GET and DELETE functions carry neither the body parser nor the body checks', async () => {
    for (const handler of ['projects/get', 'projects/delete', 'workflows/list', 'webhooks/get']) {
      expect([handler, await holds(handler, bodyChecks)]).toEqual([
        handler,
        { 'Invalid or malformed JSON was provided': false, 'Send the body as JSON with': false },
      ]);
    }
  });

  it('a POST that takes no body (cancel) carries them, to refuse a body it does not take; so does one with a body', async () => {
    for (const handler of ['workflows/cancel', 'projects/create']) {
      expect([handler, await holds(handler, bodyChecks)]).toEqual([
        handler,
        { 'Invalid or malformed JSON was provided': true, 'Send the body as JSON with': true },
      ]);
    }
  });
});
