import type { AdvisorySource } from '../../../engines/scanners/dependencies/advisories';
import { defaultOsvApiUrl, osvApiSource } from './osv-api-source';
import { osvDirectorySource } from './osv-directory-source';

export class AdvisorySourceConfigurationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AdvisorySourceConfigurationError';
  }
}

/**
 * The advisory source of the dependencies scanner, in AWS as in the local runtime:
 * - `OSV_ADVISORY_DIR`: a directory of OSV records (offline, e.g. an unpacked osv.dev export);
 * - otherwise the OSV API at `OSV_API_URL` (default https://api.osv.dev), each request bounded by
 *   `OSV_API_TIMEOUT_MS` (default 30 000).
 */
export const advisorySourceFromEnvironment = (
  env: Readonly<Record<string, string | undefined>> = process.env,
  overrides: { fetch?: typeof fetch } = {},
): AdvisorySource => {
  const directory = env.OSV_ADVISORY_DIR?.trim();
  if (directory) return osvDirectorySource(directory);
  const baseUrl = env.OSV_API_URL?.trim() || defaultOsvApiUrl;
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new AdvisorySourceConfigurationError(`OSV_API_URL is not a URL: ${JSON.stringify(baseUrl)}`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new AdvisorySourceConfigurationError('OSV_API_URL must be an http(s) URL');
  const timeout = env.OSV_API_TIMEOUT_MS?.trim();
  const timeoutMs = timeout ? Number(timeout) : undefined;
  if (timeoutMs !== undefined && !(Number.isInteger(timeoutMs) && timeoutMs > 0)) {
    throw new AdvisorySourceConfigurationError('OSV_API_TIMEOUT_MS must be a positive whole number of milliseconds');
  }
  return osvApiSource({
    baseUrl,
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    ...(overrides.fetch ? { fetch: overrides.fetch } : {}),
  });
};
