import { SECRET_MASK } from '../../../functions/engines/scanners/redact';
import { maskSecrets } from '../../../functions/engines/scanners/secrets-scanner';
import { fakeSecrets } from './secrets-fixtures';

const secrets = fakeSecrets('mask-secrets');

/** A patch as a secrets remediation writes it: the removed line is the secret itself. */
const patch = [
  'diff --git a/config/deploy.js b/config/deploy.js',
  '--- a/config/deploy.js',
  '+++ b/config/deploy.js',
  '@@ -1,3 +1,3 @@',
  `-export const github = '${secrets.githubPat}';`,
  '+// Removed a GitHub token: read it from the environment.',
  ` export const aws = '${secrets.awsAccessKeyId}';`,
  " export const region = 'eu-west-1';",
  '',
].join('\n');

describe('maskSecrets', () => {
  it('replaces every secret of a patch, removed or context lines alike, and keeps the rest as it was', async () => {
    const masked = await maskSecrets(patch);
    expect(masked).not.toContain(secrets.githubPat);
    expect(masked).not.toContain(secrets.awsAccessKeyId);
    expect(masked.split('\n')).toEqual([
      'diff --git a/config/deploy.js b/config/deploy.js',
      '--- a/config/deploy.js',
      '+++ b/config/deploy.js',
      '@@ -1,3 +1,3 @@',
      `-export const github = '${SECRET_MASK}';`,
      '+// Removed a GitHub token: read it from the environment.',
      ` export const aws = '${SECRET_MASK}';`,
      " export const region = 'eu-west-1';",
      '',
    ]);
  });

  it('leaves a text without secrets untouched', async () => {
    const text = 'diff --git a/a.js b/a.js\n-export const a = 1;\n+export const a = 2;\n';
    await expect(maskSecrets(text)).resolves.toBe(text);
  });
});
