import {
  type AdvisorySource,
  AdvisorySourceUnavailable,
  advisoryKey,
  type OsvVulnerability,
  type PackageQuery,
} from '../../../engines/scanners/dependencies/advisories';
import { osvRecordOf } from '../../../engines/scanners/dependencies/osv-record';

export const defaultOsvApiUrl = 'https://api.osv.dev';
/** osv.dev's limit of queries in one /v1/querybatch request. */
export const maxBatchSize = 1000;

export interface OsvApiSourceOptions {
  /** Default https://api.osv.dev (a trailing `/v1` is accepted). */
  baseUrl?: string;
  /** Default: the global fetch. */
  fetch?: typeof fetch;
  /** Bound on each HTTP request. Default 30 000 ms. */
  timeoutMs?: number;
  /** Queries per /v1/querybatch request, at most 1000 (the default). */
  batchSize?: number;
  /** Vulnerability records fetched at once. Default 8. */
  concurrency?: number;
  /** Attempts after a transient failure (network error, timeout, 429, 5xx). Default 2. */
  retries?: number;
  /** Wait before the first retry, doubled for each next one. Default 500 ms. */
  retryDelayMs?: number;
  /** Pages followed for one query (`next_page_token`). Default 100. */
  maxPages?: number;
  /** Vulnerability records kept in memory across scans. Default 20 000. */
  cacheSize?: number;
}

interface BatchQuery {
  package: { ecosystem: string; name: string };
  version: string;
  page_token?: string;
}

interface BatchAnswer {
  results?: Array<{ vulns?: Array<{ id?: unknown; modified?: unknown }>; next_page_token?: unknown }>;
}

class PermanentFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OsvApiError';
  }
}

/** OSV's Go versions carry no leading `v` (`v1.2.3` → `1.2.3`); other ecosystems are queried as locked. */
const queriedVersion = (query: PackageQuery): string => (query.ecosystem === 'Go' ? query.version.replace(/^v/, '') : query.version);

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Advisories from the OSV API: `POST /v1/querybatch` (≤ 1000 queries per request, pages of a
 * query followed through `next_page_token`) answers vulnerability ids; each record is then read
 * with `GET /v1/vulns/{id}` and cached in memory (refetched when the batch reports a newer
 * `modified`). Transient failures (network, timeout, 429, 5xx) are retried, then thrown as
 * `AdvisorySourceUnavailable`; other refusals as plain errors. A record the API no longer serves
 * (404) is reported by its id alone.
 */
export const osvApiSource = (options: OsvApiSourceOptions = {}): AdvisorySource => {
  const baseUrl = (options.baseUrl ?? defaultOsvApiUrl).replace(/\/+$/, '').replace(/\/v1$/, '');
  const fetchFn = options.fetch ?? globalThis.fetch;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const batchSize = Math.min(Math.max(1, options.batchSize ?? maxBatchSize), maxBatchSize);
  const concurrency = Math.max(1, options.concurrency ?? 8);
  const retries = Math.max(0, options.retries ?? 2);
  const retryDelayMs = options.retryDelayMs ?? 500;
  const maxPages = options.maxPages ?? 100;
  const cacheSize = options.cacheSize ?? 20_000;
  const cache = new Map<string, { modified: string | undefined; record: Promise<OsvVulnerability> }>();

  /** One request with retries; the parsed JSON body, or null for a 404. */
  const request = async (path: string, init: { method: 'GET' | 'POST'; body?: string }): Promise<unknown> => {
    const url = `${baseUrl}${path}`;
    let lastProblem = '';
    for (let attempt = 0; attempt <= retries; attempt += 1) {
      if (attempt > 0) await sleep(retryDelayMs * 2 ** (attempt - 1));
      let response: Response;
      try {
        response = await fetchFn(url, {
          method: init.method,
          headers: { accept: 'application/json', ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}) },
          ...(init.body !== undefined ? { body: init.body } : {}),
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (error) {
        const name = (error as Error).name;
        lastProblem = name === 'TimeoutError' || name === 'AbortError' ? `no answer within ${timeoutMs} ms` : (error as Error).message;
        continue;
      }
      if (response.status === 404 && init.method === 'GET') return null;
      if (response.status === 429 || response.status >= 500) {
        lastProblem = `HTTP ${response.status}`;
        await response.body?.cancel().catch(() => undefined);
        continue;
      }
      if (!response.ok) {
        const body = (await response.text().catch(() => '')).slice(0, 300);
        throw new PermanentFailure(`The OSV API refused ${init.method} ${path} (HTTP ${response.status})${body ? `: ${body}` : ''}`);
      }
      try {
        return await response.json();
      } catch (error) {
        lastProblem = `an answer that is not JSON (${(error as Error).message})`;
      }
    }
    throw new AdvisorySourceUnavailable(`The OSV API at ${baseUrl} is unavailable: ${lastProblem} (after ${retries + 1} attempts)`);
  };

  /** The vulnerability ids (with `modified`) of each query, in order, following pages. */
  const vulnerabilityIds = async (queries: BatchQuery[]): Promise<Array<Map<string, string | undefined>>> => {
    const found = queries.map(() => new Map<string, string | undefined>());
    for (let start = 0; start < queries.length; start += batchSize) {
      let pending = queries.slice(start, start + batchSize).map((query, offset) => ({ index: start + offset, query }));
      for (let page = 0; pending.length > 0; page += 1) {
        if (page >= maxPages) throw new PermanentFailure(`The OSV API kept paging past ${maxPages} pages`);
        const answer = (await request('/v1/querybatch', {
          method: 'POST',
          body: JSON.stringify({ queries: pending.map((item) => item.query) }),
        })) as BatchAnswer;
        const results = answer?.results;
        if (!Array.isArray(results) || results.length !== pending.length) {
          throw new AdvisorySourceUnavailable(
            `The OSV API answered ${Array.isArray(results) ? results.length : 'no'} results for ${pending.length} queries`,
          );
        }
        const next: typeof pending = [];
        results.forEach((result, position) => {
          const item = pending[position];
          if (!item) return;
          for (const vuln of result?.vulns ?? []) {
            if (typeof vuln?.id === 'string')
              found[item.index]?.set(vuln.id, typeof vuln.modified === 'string' ? vuln.modified : undefined);
          }
          const token = result?.next_page_token;
          if (typeof token === 'string' && token !== '') next.push({ index: item.index, query: { ...item.query, page_token: token } });
        });
        pending = next;
      }
    }
    return found;
  };

  const record = (id: string, modified: string | undefined): Promise<OsvVulnerability> => {
    const cached = cache.get(id);
    if (cached && (modified === undefined || cached.modified === modified)) {
      cache.delete(id); // most recently used last
      cache.set(id, cached);
      return cached.record;
    }
    const fetched = request(`/v1/vulns/${encodeURIComponent(id)}`, { method: 'GET' }).then((body) => {
      if (body === null) return { id };
      const parsed = osvRecordOf(body);
      if (!parsed) throw new AdvisorySourceUnavailable(`The OSV API answered an invalid record for ${id}`);
      return parsed;
    });
    const entry = { modified, record: fetched };
    cache.set(id, entry);
    fetched.catch(() => {
      if (cache.get(id) === entry) cache.delete(id);
    });
    while (cache.size > cacheSize) {
      const oldest = cache.keys().next().value;
      if (oldest === undefined) break;
      cache.delete(oldest);
    }
    return fetched;
  };

  /** Records for ids, at most `concurrency` requests at once. */
  const records = async (ids: Map<string, string | undefined>): Promise<Map<string, OsvVulnerability>> => {
    const entries = [...ids.entries()];
    const result = new Map<string, OsvVulnerability>();
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < entries.length) {
        const entry = entries[next++];
        if (!entry) return;
        result.set(entry[0], await record(entry[0], entry[1]));
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, entries.length) }, worker));
    return result;
  };

  return {
    async query(packages) {
      const unique = new Map<string, PackageQuery>();
      for (const query of packages) unique.set(advisoryKey(query), query);
      const queries = [...unique.values()];
      const answers = new Map<string, OsvVulnerability[]>();
      if (queries.length === 0) return answers;
      const ids = await vulnerabilityIds(
        queries.map((query) => ({ package: { ecosystem: query.ecosystem, name: query.name }, version: queriedVersion(query) })),
      );
      const allIds = new Map<string, string | undefined>();
      for (const perQuery of ids)
        for (const [id, modified] of perQuery) if (!allIds.has(id) || modified !== undefined) allIds.set(id, modified);
      const fetched = await records(allIds);
      queries.forEach((query, index) => {
        const list = [...(ids[index]?.keys() ?? [])].flatMap((id) => {
          const vulnerability = fetched.get(id);
          return vulnerability && !vulnerability.withdrawn ? [vulnerability] : [];
        });
        if (list.length > 0) answers.set(advisoryKey(query), list);
      });
      return answers;
    },
  };
};
