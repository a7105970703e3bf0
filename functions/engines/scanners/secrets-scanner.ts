/**
 * The `secrets` scanner: secretlint (`@secretlint/core`'s `lintSource`) with its recommended
 * preset over every text file of the tree (see text-files.ts for what counts as one).
 *
 * Configuration of the preset:
 * - `@secretlint/secretlint-rule-aws` runs with `enableIDScanRule: true`, so that AWS access key
 *   IDs (AKIA…, ASIA…) are reported too, not only secret access keys; its `AWSAccountID` message
 *   (12-digit account ids next to "account_id") is suppressed: account ids are not secrets.
 * - The preset's own allow-lists stay: AWS's documentation examples (`AKIAIOSFODNN7EXAMPLE`,
 *   `wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY`), placeholder passwords in URLs (`password`,
 *   `${PASSWORD}`, localhost…) and private key blocks that are not plausible base64 are not findings.
 * - `secretlint-disable*` comments in the scanned files are honoured (preset rule filter-comments).
 *
 * Secrets never leave this module: secretlint runs with `maskSecrets: false` only because some
 * rules report a wrong range (the AWS secret access key rule, npm's `.npmrc` `_authToken` and
 * `x-oauth-basic` rules give the start of the whole match with the length of the secret) and the
 * reported value is needed to find the secret exactly; the message and its data are never copied
 * into a finding. The excerpt masks the secret fully (redact.ts) and the snippet holds only a hash.
 *
 * Profiling is switched off: @secretlint/core marks `performance` (perf_hooks) ~56 times per
 * file through a process-wide profiler (@secretlint/profiler, a dependency of core pinned to its
 * version) that keeps every mark forever and scans them all on each new one — a memory leak and
 * quadratic time (1,000 files: ~10 s, the next 1,000: ~23 s...). Its `mark` is replaced by a no-op
 * (only secretlint's CLI `--profile` output uses it).
 *
 * Severity (by rule and message, see SECRET_KINDS):
 * - critical — keys to cloud infrastructure, code hosting, package publishing, secret stores,
 *   deployment platforms, email/commerce and AI provider accounts, and private keys:
 *   AWS secret access key, GCP service account key, private keys, GitHub, GitLab, npm, Slack
 *   tokens, OpenAI, Anthropic, Groq, Hugging Face, 1Password, HashiCorp Vault, Vercel,
 *   Databricks, Docker Hub, SendGrid, Shopify.
 * - high — credentials in URLs (basic auth) and database connection strings, an AWS access key id
 *   (the public half of a key pair, but a long-term key in the code), a Slack incoming webhook
 *   (post-only), and SaaS tokens scoped to one tool: Grafana, Linear, Notion, Figma.
 * - medium — anything else a future preset reports (unknown rule or message).
 * - low — an AWS account id (suppressed by the configuration above; kept for completeness).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { lintSource } from '@secretlint/core';
import { secretLintProfiler } from '@secretlint/profiler';
import { creator as recommendedPreset } from '@secretlint/secretlint-rule-preset-recommend';
import { createRedactor, SECRET_MASK, type Span } from './redact';
import type { Coverage, RawFinding, ScanResult, Scanner, Severity } from '../../core/security/scanner';
import { DEFAULT_MAX_FILE_BYTES, DEFAULT_MAX_FILES, listTextFiles } from './text-files';

(secretLintProfiler as { mark: (marker: unknown) => void }).mark = () => {};

type LintOptions = Parameters<typeof lintSource>[0]['options'];
type LintMessage = Awaited<ReturnType<typeof lintSource>>['messages'][number];

const PRESET_ID = '@secretlint/secretlint-rule-preset-recommend';
const RULE_PREFIX = '@secretlint/secretlint-rule-';

export const SECRETLINT_CONFIG: LintOptions['config'] = {
  rules: [
    {
      id: PRESET_ID,
      rule: recommendedPreset,
      rules: [
        {
          id: '@secretlint/secretlint-rule-aws',
          options: { enableIDScanRule: true },
          allowMessageIds: ['AWSAccountID'],
        },
      ],
    },
  ],
};

export interface SecretKind {
  /** What was found, e.g. 'AWS secret access key'. */
  label: string;
  severity: Severity;
}

/**
 * Label and severity per `<short rule>/<messageId>` (short rule = the rule id without
 * '@secretlint/secretlint-rule-'). A test checks that every message of the installed preset is here.
 */
export const SECRET_KINDS: Readonly<Record<string, SecretKind>> = {
  'aws/AWSSecretAccessKey': { label: 'AWS secret access key', severity: 'critical' },
  'aws/AWSAccessKeyID': { label: 'AWS access key ID', severity: 'high' },
  'aws/AWSAccountID': { label: 'AWS account ID', severity: 'low' },
  'gcp/PrivateKeyJSON': { label: 'GCP service account key (JSON)', severity: 'critical' },
  'gcp/PrivateKeyP12': { label: 'GCP service account key (P12)', severity: 'critical' },
  'privatekey/PrivateKey': { label: 'Private key', severity: 'critical' },
  'npm/NPM_ACCESS_TOKEN': { label: 'npm access token', severity: 'critical' },
  'npm/Npmrc_authToken': { label: 'npm auth token (.npmrc)', severity: 'critical' },
  'npm/PackageJSON_xOauthToken': { label: 'GitHub OAuth token in a package URL', severity: 'critical' },
  'basicauth/BasicAuth': { label: 'Credentials in a URL (basic auth)', severity: 'high' },
  'slack/SLACK_TOKEN': { label: 'Slack token', severity: 'critical' },
  'slack/IncomingWebhook': { label: 'Slack incoming webhook URL', severity: 'high' },
  'sendgrid/SENDGRID_KEY': { label: 'SendGrid API key', severity: 'critical' },
  'shopify/SHOPIFY_KEY': { label: 'Shopify access token', severity: 'critical' },
  'github/GITHUB_TOKEN': { label: 'GitHub token', severity: 'critical' },
  'gitlab/GITLAB_PERSONAL_ACCESS_TOKEN': { label: 'GitLab personal access token', severity: 'critical' },
  'grafana/GRAFANA_CLOUD_API_TOKEN': { label: 'Grafana Cloud API token', severity: 'high' },
  'grafana/GRAFANA_SERVICE_ACCOUNT_TOKEN': { label: 'Grafana service account token', severity: 'high' },
  'openai/OPENAI_TOKEN': { label: 'OpenAI API key', severity: 'critical' },
  'anthropic/ANTHROPIC_API_KEY': { label: 'Anthropic API key', severity: 'critical' },
  'groq/GROQ_API_KEY': { label: 'Groq API key', severity: 'critical' },
  'huggingface/HUGGINGFACE_USER_ACCESS_TOKEN': { label: 'Hugging Face access token', severity: 'critical' },
  'linear/LINEAR_API_TOKEN': { label: 'Linear API key', severity: 'high' },
  'notion/NOTION_INTEGRATION_TOKEN': { label: 'Notion integration token', severity: 'high' },
  '1password/OPS_TOKEN': { label: '1Password service account token', severity: 'critical' },
  'database-connection-string/MongoDBConnection': { label: 'MongoDB connection string with password', severity: 'high' },
  'database-connection-string/MySQLConnection': { label: 'MySQL connection string with password', severity: 'high' },
  'database-connection-string/PostgreSQLConnection': {
    label: 'PostgreSQL connection string with password',
    severity: 'high',
  },
  'hashicorp-vault/HASHICORP_VAULT_SERVICE_TOKEN': { label: 'HashiCorp Vault service token', severity: 'critical' },
  'hashicorp-vault/HASHICORP_VAULT_BATCH_TOKEN': { label: 'HashiCorp Vault batch token', severity: 'critical' },
  'hashicorp-vault/HASHICORP_VAULT_RECOVERY_TOKEN': { label: 'HashiCorp Vault recovery token', severity: 'critical' },
  'vercel/VERCEL_PERSONAL_ACCESS_TOKEN': { label: 'Vercel personal access token', severity: 'critical' },
  'vercel/VERCEL_INTEGRATION_TOKEN': { label: 'Vercel integration token', severity: 'critical' },
  'vercel/VERCEL_APP_ACCESS_TOKEN': { label: 'Vercel app access token', severity: 'critical' },
  'vercel/VERCEL_APP_REFRESH_TOKEN': { label: 'Vercel app refresh token', severity: 'critical' },
  'vercel/VERCEL_AI_GATEWAY_API_KEY': { label: 'Vercel AI Gateway API key', severity: 'critical' },
  'databricks/DATABRICKS_PERSONAL_ACCESS_TOKEN': { label: 'Databricks personal access token', severity: 'critical' },
  'docker/DOCKER_PERSONAL_ACCESS_TOKEN': { label: 'Docker personal access token', severity: 'critical' },
  'figma/FIGMA_PERSONAL_ACCESS_TOKEN': { label: 'Figma personal access token', severity: 'high' },
};

/** Stable rule id, label and severity of a secretlint message. */
export function describeSecret(ruleId: string, messageId: string): SecretKind & { rule_id: string; key: string } {
  const short = ruleId.startsWith(RULE_PREFIX) ? ruleId.slice(RULE_PREFIX.length) : ruleId;
  const key = `${short}/${messageId}`;
  const kind = SECRET_KINDS[key] ?? { label: `Secret (${key})`, severity: 'medium' };
  return { ...kind, key, rule_id: `secretlint/${key}` };
}

export interface SecretsScannerOptions {
  maxFileBytes?: number;
  maxFiles?: number;
  /** Files linted at once. Default 8. */
  concurrency?: number;
}

/** Data keys of secretlint messages that are not the secret (everything else is treated as secret). */
const NON_SECRET_DATA_KEYS = new Set(['typeName', 'FILE_NAME']);
/** How far from the reported range a reported value is looked for. */
const LOCATE_SLACK = 1024;

export function secretsScanner(options: SecretsScannerOptions = {}): Scanner {
  const maxFileBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  const maxFiles = options.maxFiles ?? DEFAULT_MAX_FILES;
  const concurrency = Math.max(1, options.concurrency ?? 8);

  return {
    type: 'secrets',
    async scan(root: string): Promise<ScanResult> {
      const listing = await listTextFiles(root, { maxFileBytes, maxFiles });
      const perFile = await mapWithConcurrency(listing.files, concurrency, async (file) => {
        let content: string;
        try {
          content = await readFile(file.absolutePath, 'utf8');
        } catch (error) {
          return { scanned: false, findings: [], error: `${file.path}: could not be read (${errorCode(error)})` };
        }
        let messages: LintMessage[];
        try {
          const result = await lintSource({
            source: { content, filePath: file.absolutePath, ext: path.extname(file.path), contentType: 'text' },
            options: { config: SECRETLINT_CONFIG, locale: 'en', maskSecrets: false },
          });
          messages = result.messages;
        } catch (error) {
          // Only the error's name: its message could quote the file.
          return { scanned: false, findings: [], error: `${file.path}: secretlint failed (${errorName(error)})` };
        }
        return { scanned: true, findings: toFindings(file.path, content, messages), error: null };
      });

      const findings: RawFinding[] = [];
      const errors: string[] = [];
      let filesScanned = 0;
      let failed = 0;
      for (const r of perFile) {
        findings.push(...r.findings);
        if (r.scanned) filesScanned++;
        else failed++;
        if (r.error) errors.push(r.error);
      }
      return { findings, coverage: coverageOf(listing, filesScanned, failed, maxFileBytes, maxFiles), errors };
    },
  };
}

/**
 * `content` with every secret secretlint finds in it replaced by `***` (and any other occurrence of
 * what a rule reported, as the excerpt guards do): for texts the service keeps and shows, such as a
 * remediation's patch, whose removed lines would otherwise carry the secret they remove. `fileName`
 * picks the rules that look at file names (`.npmrc`, `.env`); a patch is read as one text.
 */
export async function maskSecrets(content: string, fileName = 'remediation.patch'): Promise<string> {
  const { messages } = await lintSource({
    source: { content, filePath: fileName, ext: path.extname(fileName), contentType: 'text' },
    options: { config: SECRETLINT_CONFIG, locale: 'en', maskSecrets: false },
  });
  if (messages.length === 0) return content;
  const located = messages.map((message) => {
    const values = secretValues(message).map((v) => narrowValue(message.ruleId, v));
    return { values, span: locateSecret(content, message.range, values) };
  });
  let masked = '';
  let cursor = 0;
  for (const { span } of [...located].sort((a, b) => a.span.start - b.span.start)) {
    if (span.end <= cursor) continue;
    masked += content.slice(cursor, Math.max(cursor, span.start)) + SECRET_MASK;
    cursor = span.end;
  }
  masked += content.slice(cursor);
  // Longest first, so that a secret containing another is masked whole.
  const guards = [...new Set(located.flatMap(({ values }) => values).filter((value) => value.trim().length >= 6))].sort(
    (a, b) => b.length - a.length,
  );
  for (const guard of guards) masked = masked.split(guard).join(SECRET_MASK);
  return masked;
}

function toFindings(filePath: string, content: string, messages: readonly LintMessage[]): RawFinding[] {
  const located = messages.map((message) => {
    const values = secretValues(message).map((v) => narrowValue(message.ruleId, v));
    return { message, values, span: locateSecret(content, message.range, values) };
  });
  const redactor = createRedactor(
    content,
    located.map((l) => l.span),
  );

  const findings: RawFinding[] = [];
  const seen = new Set<string>();
  for (const { message, values, span } of located) {
    const kind = describeSecret(message.ruleId, message.messageId);
    const dedupKey = `${kind.rule_id}:${span.start}:${span.end}`;
    if (seen.has(dedupKey)) continue;
    seen.add(dedupKey);

    const { line, column, excerpt, snippet } = redactor.redact(span, { extraSecrets: values });
    findings.push({
      type: 'secrets',
      rule_id: kind.rule_id,
      severity: kind.severity,
      title: `${kind.label} in source`,
      description:
        `${kind.label} found in ${filePath} at line ${line}. Treat it as compromised: revoke or rotate it ` +
        'with its issuer, then remove it from the code — it also stays in every earlier commit.',
      location: { path: filePath, line },
      snippet: `${kind.rule_id}\n${filePath}\n${snippet}`,
      excerpt,
      details: {
        detector: 'secretlint',
        secretlint_rule: message.ruleId,
        message_id: message.messageId,
        kind: kind.label,
        column,
        ...(message.docsUrl ? { docs_url: message.docsUrl } : {}),
      },
    });
  }
  findings.sort((a, b) => (a.location.line ?? 0) - (b.location.line ?? 0) || (a.rule_id < b.rule_id ? -1 : a.rule_id > b.rule_id ? 1 : 0));
  return findings;
}

/** The strings a message reports as the secret (its data, minus known non-secret fields). */
function secretValues(message: LintMessage): string[] {
  const data = message.data as Record<string, unknown> | undefined;
  if (!data || typeof data !== 'object') return [];
  const values: string[] = [];
  for (const [key, value] of Object.entries(data)) {
    if (NON_SECRET_DATA_KEYS.has(key) || typeof value !== 'string' || value.length === 0) continue;
    values.push(value);
  }
  return values.sort((a, b) => b.length - a.length);
}

/**
 * The secret proper in a reported value: without trailing whitespace (`.npmrc` tokens are reported
 * up to the end of the line, `\r` included), and for connection strings without the closing quote
 * and punctuation the rule's pattern runs on into (`"postgres://u:p@h/db";` → up to `db`).
 */
function narrowValue(ruleId: string, value: string): string {
  let v = value.trimEnd();
  if (ruleId === `${RULE_PREFIX}database-connection-string`) v = v.replace(/["'`;,)\]}>]+$/, '');
  return v.length > 0 ? v : value;
}

/**
 * Where the secret is: the reported value at the reported start if it is there, else the reported
 * value nearest after (then before) the reported start — some rules give the start of the whole
 * match — else the reported range itself.
 */
function locateSecret(content: string, range: readonly [number, number], values: readonly string[]): Span {
  const [start, end] = range;
  for (const value of values) {
    if (content.startsWith(value, start)) return { start, end: start + value.length };
  }
  for (const value of values) {
    const after = content.indexOf(value, start);
    if (after !== -1 && after - start <= LOCATE_SLACK) return { start: after, end: after + value.length };
    const before = content.lastIndexOf(value, start);
    if (before !== -1 && start - before <= LOCATE_SLACK) return { start: before, end: before + value.length };
  }
  return { start, end: Math.max(start, end) };
}

function coverageOf(
  listing: Awaited<ReturnType<typeof listTextFiles>>,
  filesScanned: number,
  failed: number,
  maxFileBytes: number,
  maxFiles: number,
): Coverage {
  const count = (reason: string): number => listing.skipped.filter((s) => s.reason === reason).length;
  const notCovered: Coverage['not_covered'] = [];
  const add = (kind: string, files: number, reason: string): void => {
    if (files > 0) notCovered.push({ kind, files, reason });
  };
  add('binary files', count('binary'), 'binary content (a NUL byte in the first 8 KiB) is not scanned for secrets');
  add('too-large files', count('too_large'), `files over ${formatBytes(maxFileBytes)} are not read, so not scanned for secrets`);
  add('symbolic links', count('symlink'), 'symbolic links are not followed (a target inside the repository is scanned at its own path)');
  add(
    'node_modules',
    listing.excludedDirs.reduce((n, d) => n + d.files, 0),
    `third-party dependency directories (${listing.excludedDirs.length}) are not scanned for secrets`,
  );
  add('files over the file limit', listing.overLimit, `only the first ${maxFiles} text files (by path) are scanned`);
  add('unreadable files', failed, 'the file could not be read or secretlint failed on it (see errors)');
  return { files_scanned: filesScanned, covered: ['all text files'], not_covered: notCovered };
}

async function mapWithConcurrency<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

function formatBytes(bytes: number): string {
  if (bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}

function errorCode(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : errorName(error);
}

function errorName(error: unknown): string {
  return error instanceof Error ? error.name : 'unknown error';
}
