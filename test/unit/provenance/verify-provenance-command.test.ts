import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateKeyPairSync } from 'node:crypto';
import { localKeySigner } from '../../../functions/adapters/signing/local-key-signer';
import { signEnvelope, type DsseEnvelope } from '../../../functions/core/provenance/dsse';
import { localSigningKeyDirIn, provenanceCommand, type CommandIo } from '../../../bin/commands/verify-provenance';
import { sampleStatement } from './fixtures';

let dataDir: string;
let envelope: DsseEnvelope;
let publicKeyPem: string;
let keyId: string;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'provenance-cli-'));
  const signer = await localKeySigner(localSigningKeyDirIn(dataDir));
  keyId = signer.keyId;
  publicKeyPem = await signer.publicKeyPem();
  envelope = await signEnvelope(sampleStatement(), signer);
  await writeFile(join(dataDir, 'envelope.json'), JSON.stringify(envelope, null, 2));
  await writeFile(join(dataDir, 'pub.pem'), publicKeyPem);
  const tampered = JSON.parse(JSON.stringify(envelope)) as DsseEnvelope;
  tampered.payload = Buffer.from(Buffer.from(envelope.payload, 'base64').toString('utf8').replace('change.patch', 'other.patch')).toString(
    'base64',
  );
  await writeFile(join(dataDir, 'tampered.json'), JSON.stringify(tampered));
  await writeFile(
    join(dataDir, 'other.pem'),
    generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).publicKey.export({ format: 'pem', type: 'spki' }),
  );
});

afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

const run = async (args: string[], io: Partial<CommandIo> = {}) => {
  const out: string[] = [];
  const err: string[] = [];
  const code = await provenanceCommand(args, { out: (t) => out.push(t), err: (t) => err.push(t), dataDir, ...io });
  return { code, out: out.join('\n'), err: err.join('\n') };
};

const file = (name: string): string => join(dataDir, name);

describe('provenance verify', () => {
  const expectedOutput = (): string[] => [
    `${sampleStatement().subject[0]!.digest.sha256}  change.patch`,
    `${sampleStatement().subject[1]!.digest.sha256}  changes.json`,
    `verified (https://slsa.dev/provenance/v1, signed by ${keyId})`,
  ];

  it('prints the subjects as `sha256sum -c` reads them, then "verified", with a given public key', async () => {
    const result = await run(['verify', file('envelope.json'), '--public-key', file('pub.pem')]);

    expect(result).toEqual({ code: 0, out: expectedOutput().join('\n'), err: '' });
  });

  it("uses the local runtime's key with --local", async () => {
    expect(await run(['verify', file('envelope.json'), '--local'])).toEqual({ code: 0, out: expectedOutput().join('\n'), err: '' });
  });

  it('exits 1 for a changed payload or another key', async () => {
    expect(await run(['verify', file('tampered.json'), '--local'])).toEqual({
      code: 1,
      out: '',
      err: 'NOT verified: no signature verifies with this key.',
    });
    expect(await run(['verify', file('envelope.json'), '--public-key', file('other.pem')])).toMatchObject({ code: 1, out: '' });
  });

  it('exits 2, with the usage, for wrong arguments', async () => {
    for (const args of [
      ['verify'],
      ['verify', file('envelope.json')],
      ['verify', file('envelope.json'), '--local', '--public-key', file('pub.pem')],
      ['verify', 'a', 'b', '--local'],
      ['verify', file('envelope.json'), '--key', 'x'],
      ['sign'],
      [],
    ]) {
      const result = await run(args);
      expect({ args, code: result.code }).toEqual({ args, code: 2 });
      expect(result.err).toContain('provenance verify <envelope.json> --public-key <pem file>');
    }
  });

  it('exits 2, saying what is wrong, for unusable inputs', async () => {
    await writeFile(file('not-json.json'), 'nope');

    expect(await run(['verify', file('missing.json'), '--local'])).toMatchObject({
      code: 2,
      err: expect.stringMatching(/^Cannot read the envelope .*missing\.json/),
    });
    expect(await run(['verify', file('not-json.json'), '--local'])).toMatchObject({ code: 2, err: expect.stringContaining('is not JSON') });
    expect(await run(['verify', file('envelope.json'), '--public-key', file('envelope.json')])).toMatchObject({
      code: 2,
      err: expect.stringMatching(/^Unusable public key/),
    });
    expect(await run(['verify', file('envelope.json'), '--local'], { dataDir: join(dataDir, 'nowhere') })).toMatchObject({
      code: 2,
      err: expect.stringContaining('There is no local signing key'),
    });
  });
});

describe('provenance public-key', () => {
  it("prints the local runtime's public key, with or without --local (as the README and --help write it)", async () => {
    expect(await run(['public-key'])).toEqual({ code: 0, out: publicKeyPem.trimEnd(), err: '' });
    expect(await run(['public-key', '--local'])).toEqual({ code: 0, out: publicKeyPem.trimEnd(), err: '' });
    expect(await run(['public-key', '--kms'])).toMatchObject({ code: 2, err: expect.stringContaining('takes only --local') });
  });

  it('creates no key when there is none', async () => {
    expect(await run(['public-key'], { dataDir: join(dataDir, 'nowhere') })).toMatchObject({ code: 2, out: '' });
  });
});

/** The `$ ` lines of the comment at the top of verify-provenance.ts. */
const recipeCommands = async (): Promise<string[]> => {
  const source = await readFile(new URL('../../../bin/commands/verify-provenance.ts', import.meta.url), 'utf8');
  const header = source.slice(0, source.indexOf('*/'));
  return header
    .split('\n')
    .map((line) => /^ \* {3}\$ (.*)$/.exec(line)?.[1])
    .filter((command): command is string => command !== undefined);
};

const runRecipe = async (envelopeFile: string, publicKeyFile: string) => {
  const work = await mkdtemp(join(tmpdir(), 'openssl-recipe-'));
  try {
    await writeFile(join(work, 'envelope.json'), await readFile(envelopeFile));
    await writeFile(join(work, 'pub.pem'), await readFile(publicKeyFile));
    return spawnSync('sh', ['-ec', (await recipeCommands()).join('\n')], { cwd: work, encoding: 'utf8' });
  } finally {
    await rm(work, { recursive: true, force: true });
  }
};

// openssl and jq are requirements of the test tier (.ci/run installs them when missing).
describe('the openssl recipe in the comment of verify-provenance.ts', () => {
  it('has the commands', async () => {
    const commands = await recipeCommands();

    expect(commands[0]).toContain('jq -r .payload envelope.json');
    expect(commands.at(-1)).toBe('openssl dgst -sha256 -verify pub.pem -signature sig.der pae.bin');
  });

  it('verifies a signed envelope', async () => {
    const result = await runRecipe(file('envelope.json'), file('pub.pem'));

    expect({ status: result.status, stdout: result.stdout }).toEqual({ status: 0, stdout: 'Verified OK\n' });
  });

  it('fails for a changed payload and for another key', async () => {
    for (const [envelopeFile, keyFile] of [
      ['tampered.json', 'pub.pem'],
      ['envelope.json', 'other.pem'],
    ] as const) {
      const result = await runRecipe(file(envelopeFile), file(keyFile));
      expect(result.status).not.toBe(0);
      expect(result.stdout).toContain('Verification failure');
    }
  });

  it('builds the same PAE as the service', async () => {
    const work = await mkdtemp(join(tmpdir(), 'openssl-pae-'));
    try {
      await writeFile(join(work, 'envelope.json'), JSON.stringify(envelope));
      const upToPae = (await recipeCommands()).slice(0, -1).join('\n');
      execFileSync('sh', ['-ec', upToPae], { cwd: work });
      const { preAuthEncoding } = await import('../../../functions/core/provenance/dsse');

      expect(
        (await readFile(join(work, 'pae.bin'))).equals(preAuthEncoding(envelope.payloadType, Buffer.from(envelope.payload, 'base64'))),
      ).toBe(true);
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  });
});
