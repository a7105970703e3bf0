import { createHash } from 'node:crypto';

/**
 * The provenance of a workflow run as an in-toto Statement v1 carrying a SLSA Provenance v1
 * predicate: which artifacts (by digest) came out of which repository commit, prompt and AI
 * provider, and whether they passed verification.
 */

export const statementType = 'https://in-toto.io/Statement/v1';
export const slsaProvenanceType = 'https://slsa.dev/provenance/v1';
/** Names the recipe: how to read `externalParameters` and `internalParameters`. Bump on shape changes. */
export const workflowBuildType = 'https://project-automation.dev/workflow/v1';
/** Names the service as the builder that ran the workflow. */
export const workflowBuilderId = 'https://project-automation.dev/builder/v1';

export interface ProvenanceArtifact {
  /** e.g. `change.patch`, `changes.json`. */
  name: string;
  /** Lowercase hex SHA-256 of the artifact's bytes. */
  sha256: string;
}

/** What the prove stage knows about a workflow run. */
export interface ProvenanceInput {
  workflowId: string;
  /** The repository address as stored on the project; credentials in it are left out. */
  repository: string;
  branch: string;
  /** The commit the change was made against: 40 (SHA-1) or 64 (SHA-256) hex digits. */
  commit: string;
  /** Hex SHA-256 of the prompt, so that the prompt itself stays out of the statement. */
  promptSha256: string;
  /** The AI provider that wrote the change, e.g. `bedrock`. */
  aiProvider: string;
  /** What the run produced: the diff (`change.patch`) and the change set (`changes.json`). */
  artifacts: ProvenanceArtifact[];
  verification: { passed: boolean; reportSha256: string };
  /** RFC 3339 times of the workflow's start and of the end of its last stage before `prove`. */
  startedOn: string;
  finishedOn: string;
}

export interface StatementSubject {
  name: string;
  digest: { sha256: string };
}

export interface SlsaProvenance {
  buildDefinition: {
    buildType: string;
    externalParameters: { repository: string; branch: string; prompt_sha256: string; ai_provider: string; workflow_id: string };
    internalParameters: { verification: { passed: boolean; report_sha256: string } };
    resolvedDependencies: Array<{ uri: string; digest: { gitCommit: string } }>;
  };
  runDetails: {
    builder: { id: string };
    metadata: { invocationId: string; startedOn: string; finishedOn: string };
  };
}

export interface InTotoStatement {
  _type: typeof statementType;
  subject: StatementSubject[];
  predicateType: typeof slsaProvenanceType;
  predicate: SlsaProvenance;
}

export const sha256Hex = (data: string | Uint8Array): string => createHash('sha256').update(data).digest('hex');

const sha256Pattern = /^[0-9a-f]{64}$/;
const gitCommitPattern = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

const requireSha256 = (value: string, what: string): string => {
  if (!sha256Pattern.test(value)) throw new TypeError(`${what} must be a lowercase hex SHA-256, got "${value}"`);
  return value;
};

/** The address without a password or token; an ssh user name (`git@`) is kept, since it is not a secret. */
export const repositoryWithoutCredentials = (repository: string): string => {
  let url: URL;
  try {
    url = new URL(repository);
  } catch {
    return repository;
  }
  if (!url.username && !url.password) return repository;
  if (url.protocol !== 'ssh:') url.username = '';
  url.password = '';
  return url.toString();
};

/** SLSA's form for a git source: `git+<url>@refs/heads/<branch>`. */
export const gitDependencyUri = (repository: string, branch: string): string => {
  const address = repositoryWithoutCredentials(repository);
  // `git@github.com:owner/repo.git`, the scp-like address git accepts, is ssh.
  const scpLike = /^([^@/:]+@)?([^/:]+):(?!\/\/)(.+)$/.exec(address);
  let url: string;
  if (address.startsWith('git+')) url = address.slice(4);
  else if (address.startsWith('/')) url = `file://${address}`;
  else if (scpLike) url = `ssh://${scpLike[1] ?? ''}${scpLike[2]}/${scpLike[3]}`;
  else url = address;
  return `git+${url}@refs/heads/${branch}`;
};

/** Subjects in name order, so the same run always gives the same statement. */
const subjectsOf = (artifacts: ProvenanceArtifact[]): StatementSubject[] => {
  if (artifacts.length === 0) throw new TypeError('provenance needs at least one artifact');
  const names = new Set(artifacts.map((a) => a.name));
  if (names.size !== artifacts.length) throw new TypeError('artifact names must be unique');
  return [...artifacts]
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map((a) => ({ name: a.name, digest: { sha256: requireSha256(a.sha256, `digest of ${a.name}`) } }));
};

export const buildStatement = (input: ProvenanceInput): InTotoStatement => {
  if (!gitCommitPattern.test(input.commit)) throw new TypeError(`commit must be 40 or 64 lowercase hex digits, got "${input.commit}"`);
  return {
    _type: statementType,
    subject: subjectsOf(input.artifacts),
    predicateType: slsaProvenanceType,
    predicate: {
      buildDefinition: {
        buildType: workflowBuildType,
        externalParameters: {
          repository: repositoryWithoutCredentials(input.repository),
          branch: input.branch,
          prompt_sha256: requireSha256(input.promptSha256, 'promptSha256'),
          ai_provider: input.aiProvider,
          workflow_id: input.workflowId,
        },
        internalParameters: {
          verification: {
            passed: input.verification.passed,
            report_sha256: requireSha256(input.verification.reportSha256, 'verification.reportSha256'),
          },
        },
        resolvedDependencies: [{ uri: gitDependencyUri(input.repository, input.branch), digest: { gitCommit: input.commit } }],
      },
      runDetails: {
        builder: { id: workflowBuilderId },
        metadata: { invocationId: input.workflowId, startedOn: input.startedOn, finishedOn: input.finishedOn },
      },
    },
  };
};
