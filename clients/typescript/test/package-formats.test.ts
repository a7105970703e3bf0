/**
 * The SDK as a project installs it (`npm pack`, then the tarball unpacked into the project's
 * node_modules), used from CommonJS and from ES modules, its types checked under each of
 * TypeScript's module resolutions a project may have: `node10` (what `"module": "commonjs"`
 * implies), `node16` from a CommonJS file and `nodenext` from an ES module.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const repository = fileURLToPath(new URL('../../..', import.meta.url));
const sdkFolder = fileURLToPath(new URL('..', import.meta.url));
const tsc = join(repository, 'node_modules/typescript/bin/tsc');

let work: string;
let consumer: string;

/** A receiver's use of the SDK: sign a body, verify it back into the typed event, refuse a forgery. */
const receiverCode = (load: string) => `${load}
const body = JSON.stringify({ id: 'evt_1', type: 'workflow.completed', created_at: '2026-01-01T00:00:00.000Z', data: {} });
const now = 1_800_000_000;
(async () => {
  const header = await sdk.signPayload(body, ['whsec_one'], now);
  const event = await sdk.constructEvent(body, header, 'whsec_one', { nowSeconds: now });
  let refused = '';
  try {
    await sdk.constructEvent(body, header, 'whsec_two', { nowSeconds: now });
  } catch (error) {
    refused = error instanceof sdk.ServiceError ? error.name : 'not a ServiceError';
  }
  const client = sdk.createClient({ baseUrl: 'http://127.0.0.1:1/v1', apiKey: 'svc_test_x' });
  console.log(JSON.stringify({ type: event.type, refused, client: typeof client.get }));
})();
`;

/**
 * One process with both builds: an ES module app whose CommonJS library requires the SDK. What one
 * build answers or throws is told by the other's `responseOf` and `instanceof`.
 */
const bothBuildsCode = `import { createRequire } from 'node:module';
import * as esm from '@project-automation-service/sdk';
const cjs = createRequire(import.meta.url)('@project-automation-service/sdk');
const answer = (status, body) => async () =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', 'x-request-id': 'req_1' } });
const found = cjs.createClient({ baseUrl: 'http://127.0.0.1:1/v1', apiKey: 'svc_test_x', fetch: answer(200, { data: [] }) });
const missing = cjs.createClient({
  baseUrl: 'http://127.0.0.1:1/v1',
  apiKey: 'svc_test_x',
  fetch: answer(404, { error: { code: 'not_found', message: 'Webhook not found.' } }),
});
const page = await found.get('/v1/webhooks', {});
const error = await missing.get('/v1/webhooks', {}).catch((e) => e);
const forged = await esm.constructEvent('{}', 't=1,v1=00', 'whsec_one').catch((e) => e);
console.log(JSON.stringify({
  separate: esm.createClient !== cjs.createClient,
  status: esm.responseOf(page)?.status,
  apiError: [error instanceof esm.ServiceApiError, error instanceof esm.ServiceError, error instanceof esm.ServiceConnectionError],
  signature: [forged instanceof cjs.WebhookSignatureError, forged instanceof cjs.ServiceError, forged instanceof cjs.ServiceApiError],
  plain: [new Error('x') instanceof esm.ServiceError, null instanceof esm.ServiceError, 'x' instanceof esm.ServiceError],
}));
`;

/** What a TypeScript project writes; it must type-check against the installed package alone. */
const typedCode = (load: string) => `${load}
export const check = async (): Promise<string> => {
  const client = sdk.createClient({ baseUrl: 'https://api.example.com/v1', apiKey: 'svc_test_x' });
  const event: sdk.ServiceEvent = await sdk.constructEvent('{}', 't=1,v1=00', 'whsec_one');
  const failure: sdk.ServiceError = new sdk.WebhookSignatureError('bad');
  return [typeof client.get, event.type, failure.message].join();
};
`;

const typeCheck = async (file: string, options: Record<string, unknown>) => {
  const config = join(consumer, `tsconfig.${file}.json`);
  writeFileSync(
    config,
    JSON.stringify({
      compilerOptions: { strict: true, noEmit: true, target: 'ES2022', lib: ['ES2022', 'DOM'], types: [], ...options },
      files: [file],
    }),
  );
  return run(process.execPath, [tsc, '-p', config], { cwd: consumer });
};

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'sdk-package-'));
  // The package's own folder, as published: its sources, build settings and scripts, with this
  // repository's dependencies beside it (a link, so its build finds tsc and openapi-fetch).
  const source = join(work, 'sdk');
  for (const entry of ['package.json', 'tsconfig.json', 'tsconfig.build.json', 'tsconfig.cjs.json', 'src', 'scripts'])
    cpSync(join(sdkFolder, entry), join(source, entry), { recursive: true });
  symlinkSync(join(repository, 'node_modules'), join(source, 'node_modules'), 'dir');
  // Offline and without npm's update check: packing a folder needs no registry (the network rule).
  const offline = { ...process.env, npm_config_offline: 'true', npm_config_update_notifier: 'false', npm_config_audit: 'false' };
  await run('npm', ['pack', '--silent', '--pack-destination', work], { cwd: source, env: offline });
  const tarball = readdirSync(work).find((name) => name.endsWith('.tgz'));
  if (tarball === undefined) throw new Error(`npm pack wrote no tarball in ${work}`);

  consumer = join(work, 'consumer');
  const installed = join(consumer, 'node_modules/@project-automation-service/sdk');
  mkdirSync(installed, { recursive: true });
  await run('tar', ['-xzf', join(work, tarball), '-C', installed, '--strip-components=1']);
  for (const dependency of ['openapi-fetch', 'openapi-typescript-helpers'])
    symlinkSync(join(repository, 'node_modules', dependency), join(consumer, 'node_modules', dependency), 'dir');
  writeFileSync(join(consumer, 'receiver.cjs'), receiverCode("const sdk = require('@project-automation-service/sdk');"));
  writeFileSync(join(consumer, 'receiver.mjs'), receiverCode("import * as sdk from '@project-automation-service/sdk';"));
  writeFileSync(join(consumer, 'both.mjs'), bothBuildsCode);
  writeFileSync(join(consumer, 'node10.ts'), typedCode("import * as sdk from '@project-automation-service/sdk';"));
  writeFileSync(join(consumer, 'node16.cts'), typedCode("import sdk = require('@project-automation-service/sdk');"));
  writeFileSync(join(consumer, 'nodenext.mts'), typedCode("import * as sdk from '@project-automation-service/sdk';"));
}, 120_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

const expected = { type: 'workflow.completed', refused: 'WebhookSignatureError', client: 'function' };

describe('the packed SDK', () => {
  it('works from CommonJS (require), on every node the package supports', async () => {
    // Without require() of ES modules, as on node 20 before 20.19, which the package supports too.
    const { stdout } = await run(process.execPath, ['--no-experimental-require-module', 'receiver.cjs'], { cwd: consumer });
    expect(JSON.parse(stdout)).toEqual(expected);
  });

  it('works from an ES module (import)', async () => {
    const { stdout } = await run(process.execPath, ['receiver.mjs'], { cwd: consumer });
    expect(JSON.parse(stdout)).toEqual(expected);
  });

  it("tells what one build answered or threw to the other's responseOf and instanceof, in a process that loads both", async () => {
    const { stdout } = await run(process.execPath, ['both.mjs'], { cwd: consumer });
    expect(JSON.parse(stdout)).toEqual({
      separate: true,
      status: 200,
      apiError: [true, true, false],
      signature: [true, true, false],
      plain: [false, false, false],
    });
  });

  it('type-checks in a project on "module": "commonjs" (node10 resolution, which reads only main and types)', async () => {
    await expect(typeCheck('node10.ts', { module: 'commonjs', moduleResolution: 'node10' })).resolves.toBeDefined();
  }, 60_000);

  it('type-checks from a CommonJS file under node16 and from an ES module under nodenext', async () => {
    await expect(typeCheck('node16.cts', { module: 'node16', moduleResolution: 'node16' })).resolves.toBeDefined();
    await expect(typeCheck('nodenext.mts', { module: 'nodenext', moduleResolution: 'nodenext' })).resolves.toBeDefined();
  }, 120_000);
});
