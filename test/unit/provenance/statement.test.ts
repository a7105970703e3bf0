import { createHash } from 'node:crypto';
import {
  buildStatement,
  gitDependencyUri,
  repositoryWithoutCredentials,
  sha256Hex,
  type ProvenanceInput,
} from '../../../functions/core/provenance/statement';

const digest = (text: string): string => createHash('sha256').update(text).digest('hex');
const commit = '0123456789abcdef0123456789abcdef01234567';

const input: ProvenanceInput = {
  workflowId: 'wf_01JABCDEF',
  repository: 'https://github.com/acme/shop',
  branch: 'main',
  commit,
  promptSha256: digest('Add a health check endpoint'),
  aiProvider: 'bedrock',
  artifacts: [
    { name: 'changes.json', sha256: digest('{"files":[]}') },
    { name: 'change.patch', sha256: digest('diff --git a/x b/x') },
  ],
  verification: { passed: true, reportSha256: digest('{"passed":true}') },
  startedOn: '2026-11-21T10:00:00.000Z',
  finishedOn: '2026-11-21T10:03:12.000Z',
};

describe('buildStatement', () => {
  it('is an in-toto Statement v1 with a SLSA Provenance v1 predicate', () => {
    expect(buildStatement(input)).toEqual({
      _type: 'https://in-toto.io/Statement/v1',
      subject: [
        { name: 'change.patch', digest: { sha256: digest('diff --git a/x b/x') } },
        { name: 'changes.json', digest: { sha256: digest('{"files":[]}') } },
      ],
      predicateType: 'https://slsa.dev/provenance/v1',
      predicate: {
        buildDefinition: {
          buildType: 'https://project-automation.dev/workflow/v1',
          externalParameters: {
            repository: 'https://github.com/acme/shop',
            branch: 'main',
            prompt_sha256: digest('Add a health check endpoint'),
            ai_provider: 'bedrock',
            workflow_id: 'wf_01JABCDEF',
          },
          internalParameters: { verification: { passed: true, report_sha256: digest('{"passed":true}') } },
          resolvedDependencies: [{ uri: 'git+https://github.com/acme/shop@refs/heads/main', digest: { gitCommit: commit } }],
        },
        runDetails: {
          builder: { id: 'https://project-automation.dev/builder/v1' },
          metadata: { invocationId: 'wf_01JABCDEF', startedOn: '2026-11-21T10:00:00.000Z', finishedOn: '2026-11-21T10:03:12.000Z' },
        },
      },
    });
  });

  it('gives the same JSON for the same run, whatever the order of the artifacts', () => {
    const reordered = { ...input, artifacts: [...input.artifacts].reverse() };

    expect(JSON.stringify(buildStatement(reordered))).toBe(JSON.stringify(buildStatement(input)));
  });

  it('leaves credentials in the repository address out', () => {
    const statement = buildStatement({ ...input, repository: 'https://x-access-token:ghs_secret@github.com/acme/shop.git' });

    expect(JSON.stringify(statement)).not.toContain('ghs_secret');
    expect(statement.predicate.buildDefinition.externalParameters.repository).toBe('https://github.com/acme/shop.git');
    expect(statement.predicate.buildDefinition.resolvedDependencies[0]?.uri).toBe('git+https://github.com/acme/shop.git@refs/heads/main');
  });

  it('refuses digests that are not lowercase hex SHA-256, a short commit, no or duplicate artifacts', () => {
    expect(() => buildStatement({ ...input, promptSha256: 'abc' })).toThrow(/promptSha256/);
    expect(() => buildStatement({ ...input, artifacts: [{ name: 'change.patch', sha256: digest('x').toUpperCase() }] })).toThrow(
      /change.patch/,
    );
    expect(() => buildStatement({ ...input, commit: '0123456' })).toThrow(/commit/);
    expect(() => buildStatement({ ...input, artifacts: [] })).toThrow(/at least one/);
    expect(() => buildStatement({ ...input, artifacts: [input.artifacts[0]!, input.artifacts[0]!] })).toThrow(/unique/);
  });

  it('accepts a SHA-256 git commit', () => {
    const sha256Commit = digest('commit');

    expect(buildStatement({ ...input, commit: sha256Commit }).predicate.buildDefinition.resolvedDependencies[0]?.digest).toEqual({
      gitCommit: sha256Commit,
    });
  });
});

describe('gitDependencyUri', () => {
  it.each([
    ['https://github.com/acme/shop', 'git+https://github.com/acme/shop@refs/heads/main'],
    ['git@github.com:acme/shop.git', 'git+ssh://git@github.com/acme/shop.git@refs/heads/main'],
    ['ssh://git@gitlab.example.com:2222/acme/shop.git', 'git+ssh://git@gitlab.example.com:2222/acme/shop.git@refs/heads/main'],
    ['git+https://github.com/acme/shop', 'git+https://github.com/acme/shop@refs/heads/main'],
    ['/srv/repos/shop', 'git+file:///srv/repos/shop@refs/heads/main'],
  ])('%s becomes %s', (repository, uri) => {
    expect(gitDependencyUri(repository, 'main')).toBe(uri);
  });
});

describe('repositoryWithoutCredentials', () => {
  it('drops user and password from http addresses and only the password from ssh ones', () => {
    expect(repositoryWithoutCredentials('https://user:pass@example.com/r.git')).toBe('https://example.com/r.git');
    expect(repositoryWithoutCredentials('ssh://git:pass@example.com/r.git')).toBe('ssh://git@example.com/r.git');
    expect(repositoryWithoutCredentials('git@github.com:acme/shop.git')).toBe('git@github.com:acme/shop.git');
  });
});

describe('sha256Hex', () => {
  it('is the lowercase hex SHA-256 of text and bytes alike', () => {
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256Hex(Buffer.from('abc'))).toBe(sha256Hex('abc'));
  });
});
