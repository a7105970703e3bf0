import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { localSigningKeyFileName } from '../../../functions/adapters/signing/local-key-signer';
import { signerFromEnvironment, SigningConfigurationError } from '../../../functions/adapters/signing/signer-runtime';

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'signer-runtime-'));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('signerFromEnvironment', () => {
  it('uses the KMS key named by SIGNING_KEY_ID, even when a local directory is set too', async () => {
    const signer = await signerFromEnvironment({ SIGNING_KEY_ID: 'alias/provenance', LOCAL_SIGNING_KEY_DIR: dir });

    expect(signer.keyId).toBe('alias/provenance');
    expect(await readdir(dir)).toEqual([]);
  });

  it('uses a key file in LOCAL_SIGNING_KEY_DIR otherwise', async () => {
    const signer = await signerFromEnvironment({ LOCAL_SIGNING_KEY_DIR: dir });

    expect(signer.keyId).toMatch(/^local:[0-9a-f]{16}$/);
    expect(await readdir(dir)).toEqual([localSigningKeyFileName]);
  });

  it('says what to set when neither is', async () => {
    const attempt = signerFromEnvironment({ SIGNING_KEY_ID: ' ' });

    await expect(attempt).rejects.toBeInstanceOf(SigningConfigurationError);
    await expect(signerFromEnvironment({})).rejects.toThrow(/SIGNING_KEY_ID.*LOCAL_SIGNING_KEY_DIR/);
  });
});
