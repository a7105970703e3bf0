import { dynamoProjectRepository } from '../../functions/adapters/dynamodb/project-repository';
import { idTime, newId } from '../../functions/core/ids';
import type { Project } from '../../functions/core/projects/project';
import type { Tenant } from '../../functions/core/tenancy';
import { type ApiAnswer, as } from './support/http';
import { apiUrl, newAccount, runtimeTable, type TestAccount } from './support/runtime';

/** Lists of projects through real HTTP: DESIGN.md's list contract (pages, sorts, dates, links, cursors). */

type Api = ReturnType<typeof as>;
type Sort = 'created_at' | 'name' | 'updated_at';
type Order = 'asc' | 'desc';

const sorts: Sort[] = ['created_at', 'name', 'updated_at'];
const orders: Order[] = ['asc', 'desc'];
const sortOrders = sorts.flatMap((sort) => orders.map((order) => [sort, order] as const));

const minute = 60_000;
const hour = 60 * minute;
const dayMs = 24 * hour;
const dayStart = (date: string): number => Date.parse(`${date}T00:00:00.000Z`);
const iso = (ms: number): string => new Date(ms).toISOString();

const liveTenant = (account: TestAccount): Tenant => ({ accountId: account.account.id, mode: 'live' });

interface Seed {
  name: string;
  createdAt: number;
  updatedAt?: number;
}

/** Projects written straight into the runtime's table, with controlled ids and timestamps. */
const seed = async (tenant: Tenant, seeds: Seed[]): Promise<Project[]> => {
  const repository = dynamoProjectRepository(await runtimeTable());
  const projects: Project[] = [];
  for (const [i, s] of seeds.entries()) {
    const project: Project = {
      id: newId('project', s.createdAt),
      name: s.name,
      repository: `https://github.com/acme/repo-${i}`,
      description: `fixture ${i}`,
      created_at: iso(s.createdAt),
      updated_at: iso(s.updatedAt ?? s.createdAt),
    };
    expect(idTime(project.id)).toBe(s.createdAt);
    // One at a time: every create also bumps the collection's counter in a transaction.
    await repository.create(tenant, project);
    projects.push(project);
  }
  return projects;
};

const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
const sortValue = (project: Project, sort: Sort): string => (sort === 'name' ? project.name.toLowerCase() : project[sort]);

/** The order DESIGN.md promises: by the field (names case-insensitively), ties by id, desc is the exact reverse. */
const expectedOrder = (projects: Project[], sort: Sort, order: Order): string[] => {
  const ascending = [...projects].sort((a, b) => compare(sortValue(a, sort), sortValue(b, sort)) || compare(a.id, b.id)).map((p) => p.id);
  return order === 'asc' ? ascending : ascending.reverse();
};

const ids = (answer: ApiAnswer): string[] => (answer.body?.data ?? []).map((p: Project) => p.id);

const listPath = (query: Record<string, string | number> = {}): string => {
  const params = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]));
  const text = params.toString();
  return text ? `/projects?${text}` : '/projects';
};

const list = async (api: Api, query: Record<string, string | number> = {}): Promise<ApiAnswer> => {
  const answer = await api.get(listPath(query));
  if (answer.status !== 200) throw new Error(`GET ${listPath(query)} answered ${answer.status}: ${answer.text}`);
  return answer;
};

/** The RFC 8288 `Link` header as rel → URL; fails on anything that is not `<url>; rel="…"`. */
const linksOf = (answer: ApiAnswer): Record<string, URL> => {
  const header = answer.headers.get('link');
  expect(header).toBeTruthy();
  const links: Record<string, URL> = {};
  const parts = (header as string).split(/,\s*(?=<)/);
  for (const part of parts) {
    const match = /^<([^>]+)>;\s*rel="([a-z]+)"$/.exec(part.trim());
    if (!match) throw new Error(`not an RFC 8288 link: ${part}`);
    const [, url, rel] = match as unknown as [string, string, string];
    expect(links[rel]).toBeUndefined();
    links[rel] = new URL(url);
  }
  return links;
};

/** A link of the Link header as a path for the test client (relative to /v1), checking where it points. */
const relative = (url: URL): string => {
  const base = new URL(apiUrl());
  expect(url.origin).toBe(base.origin);
  expect(url.pathname).toBe(`${base.pathname}/projects`);
  return `/projects${url.search}`;
};

const pageOf = (url: URL | undefined): number | undefined => (url ? Number(url.searchParams.get('page')) : undefined);

/** Follows `next` from `path` to the end; every page must be a 200. */
const walk = async (api: Api, path: string): Promise<ApiAnswer[]> => {
  const pages: ApiAnswer[] = [];
  let next: string | undefined = path;
  while (next !== undefined) {
    const answer: ApiAnswer = await api.get(next);
    if (answer.status !== 200)
      throw new Error(`GET ${next} (page ${pages.length + 1} of a walk) answered ${answer.status}: ${answer.text}`);
    pages.push(answer);
    const link: URL | undefined = linksOf(answer).next;
    next = link ? relative(link) : undefined;
    if (pages.length > 60) throw new Error('the next links never end');
  }
  return pages;
};

/** Follows `next` from `path` to the end like `walk`, calling `between` after each page. */
const walkWhile = async (api: Api, path: string, between: (pagesRead: number) => Promise<void>): Promise<string[]> => {
  const seen: string[] = [];
  let next: string | undefined = path;
  for (let pagesRead = 1; next !== undefined && pagesRead <= 20; pagesRead++) {
    const answer = await list(api, Object.fromEntries(new URL(next, 'http://x').searchParams));
    seen.push(...ids(answer));
    const link: URL | undefined = linksOf(answer).next;
    next = link ? relative(link) : undefined;
    await between(pagesRead);
  }
  return seen;
};

const expectValidation = (answer: ApiAnswer, field: string, issue?: RegExp): void => {
  expect({ status: answer.status, code: answer.body?.error?.code, field: answer.body?.error?.details?.field }).toEqual({
    status: 422,
    code: 'validation_error',
    field,
  });
  if (issue) expect(answer.body.error.details.issue).toMatch(issue);
};

const base64url = (text: string): string => Buffer.from(text).toString('base64url');
const decoded = (cursor: string): Record<string, unknown> => JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));

/**
 * 25 projects: mixed-case names with case-insensitive duplicates ('alpha', 'Alpha', 'ALPHA', two
 * 'build'), three created in the same millisecond, and updated_at values shared five at a time, so
 * every sort has ties that only the id can break.
 */
const names = [
  'alpha',
  'Gamma',
  'beta',
  'Alpha',
  'delta',
  'Zeta',
  'epsilon',
  'ALPHA',
  'build',
  'Theta',
  'iota',
  'Kappa',
  'build',
  'lambda',
  'Mu',
  'Build 2',
  'nu',
  'Xi',
  'omicron',
  'Pi',
  'rho',
  'Sigma',
  'builder',
  'tau',
  'Upsilon',
];
const fixtureStart = dayStart('2026-03-02') + 9 * hour;
const fixtureSeeds: Seed[] = names.map((name, i) => ({
  name,
  // Items 10, 11 and 12 share one millisecond of creation.
  createdAt: fixtureStart + (i >= 10 && i <= 12 ? 10 : i) * 37 * minute,
  // Five groups of five equal updated_at values, interleaved with creation order.
  updatedAt: fixtureStart + 30 * dayMs + ((i * 3) % 5) * hour,
}));

describe('project lists: pages, sorts, links and cursors', () => {
  let account: TestAccount;
  let projects: Project[];
  /** A fresh live key of the fixture account for each test: the rate limit is per key. */
  const freshApi = async (): Promise<Api> => as((await account.newKey('live')).key);

  beforeAll(async () => {
    account = await newAccount();
    projects = await seed(liveTenant(account), fixtureSeeds);
  });

  it('the fixture has the ties and mixed case the sort tests rely on', () => {
    const lowered = projects.map((p) => p.name.toLowerCase());
    expect(new Set(lowered).size).toBeLessThan(lowered.length);
    expect(new Set(projects.map((p) => p.created_at)).size).toBeLessThan(projects.length);
    expect(new Set(projects.map((p) => p.updated_at)).size).toBe(5);
    // A case-sensitive name order would differ from the case-insensitive one.
    const caseSensitive = [...projects].sort((a, b) => compare(a.name, b.name) || compare(a.id, b.id)).map((p) => p.id);
    expect(caseSensitive).not.toEqual(expectedOrder(projects, 'name', 'asc'));
  });

  it('the default page: 20 items, page 1, newest first, true meta', async () => {
    const api = await freshApi();
    const answer = await list(api);
    expect(answer.body.meta).toEqual({ page: 1, per_page: 20, total: 25, total_pages: 2 });
    expect(ids(answer)).toEqual(expectedOrder(projects, 'created_at', 'desc').slice(0, 20));
    // Whole projects, exactly as created.
    const byId = new Map(projects.map((p) => [p.id, p]));
    for (const item of answer.body.data as Project[]) expect(item).toEqual(byId.get(item.id));

    const second = await list(api, { page: 2 });
    expect(second.body.meta).toEqual({ page: 2, per_page: 20, total: 25, total_pages: 2 });
    expect(ids(second)).toEqual(expectedOrder(projects, 'created_at', 'desc').slice(20));
  });

  it('per_page is 1 to 100: 100 is accepted, 101 and 0 are refused (never clamped)', async () => {
    const api = await freshApi();
    const hundred = await list(api, { per_page: 100 });
    expect(hundred.body.meta).toEqual({ page: 1, per_page: 100, total: 25, total_pages: 1 });
    expect(ids(hundred)).toEqual(expectedOrder(projects, 'created_at', 'desc'));

    const one = await list(api, { per_page: 1 });
    expect(one.body.meta).toEqual({ page: 1, per_page: 1, total: 25, total_pages: 25 });
    expect(ids(one)).toHaveLength(1);

    expectValidation(await api.get(listPath({ per_page: 101 })), 'per_page', /100/);
    expectValidation(await api.get(listPath({ per_page: 0 })), 'per_page', /1/);
    expectValidation(await api.get(listPath({ per_page: -5 })), 'per_page');
    expectValidation(await api.get(listPath({ per_page: 'ten' })), 'per_page');
  });

  it('page must be a whole number from 1', async () => {
    const api = await freshApi();
    expectValidation(await api.get(listPath({ page: 0 })), 'page');
    expectValidation(await api.get(listPath({ page: -1 })), 'page');
    expectValidation(await api.get(listPath({ page: 'abc' })), 'page');
    expectValidation(await api.get(listPath({ page: '1.5' })), 'page');
    expectValidation(await api.get(listPath({ page: '' })), 'page');
  });

  it('a parameter given twice is refused as such, not as the two values joined', async () => {
    const api = await freshApi();
    expectValidation(await api.get('/projects?per_page=5&per_page=6'), 'per_page', /given more than once/);
    expectValidation(await api.get('/projects?sort=name&order=asc&sort=name'), 'sort', /given more than once/);
  });

  it('a page past the end is an empty 200 with the true meta', async () => {
    const api = await freshApi();
    const third = await list(api, { page: 3 });
    expect(third.body).toEqual({ data: [], meta: { page: 3, per_page: 20, total: 25, total_pages: 2 } });
    const far = await list(api, { page: 999, per_page: 7, sort: 'name' });
    expect(far.body).toEqual({ data: [], meta: { page: 999, per_page: 7, total: 25, total_pages: 4 } });
  });

  it.each(sortOrders)('sort=%s&order=%s: exactly the promised order, ties by id, true total on every page', async (sort, order) => {
    const api = await freshApi();
    const expected = expectedOrder(projects, sort, order);

    const whole = await list(api, { sort, order, per_page: 100 });
    expect(ids(whole)).toEqual(expected);
    expect(whole.body.meta).toEqual({ page: 1, per_page: 100, total: 25, total_pages: 1 });

    // Walking the next links, 7 at a time: every project once, in order, and no next link at the end.
    const pages = await walk(api, listPath({ sort, order, per_page: 7 }));
    expect(pages.map((p) => p.body.meta)).toEqual([1, 2, 3, 4].map((page) => ({ page, per_page: 7, total: 25, total_pages: 4 })));
    expect(pages.flatMap(ids)).toEqual(expected);
    expect(linksOf(pages[pages.length - 1] as ApiAnswer).next).toBeUndefined();

    // Jumping straight to page N (no cursor) gives the same items as walking there.
    for (const [i, walked] of pages.entries()) {
      const jumped = await list(api, { sort, order, per_page: 7, page: i + 1 });
      expect(ids(jumped)).toEqual(ids(walked));
      expect(jumped.body.meta).toEqual(walked.body.meta);
    }
  });

  it('order defaults to desc and sort to created_at', async () => {
    const api = await freshApi();
    expect(ids(await list(api, { sort: 'name', per_page: 100 }))).toEqual(expectedOrder(projects, 'name', 'desc'));
    expect(ids(await list(api, { order: 'asc', per_page: 100 }))).toEqual(expectedOrder(projects, 'created_at', 'asc'));
  });

  it('an unknown sort or order value is refused, naming the allowed ones', async () => {
    const api = await freshApi();
    const sort = await api.get(listPath({ sort: 'repository' }));
    expectValidation(sort, 'sort');
    for (const allowed of sorts) expect(sort.body.error.details.issue).toContain(allowed);
    expectValidation(await api.get(listPath({ sort: 'NAME' })), 'sort');
    expectValidation(await api.get(listPath({ sort: 'id' })), 'sort');

    const order = await api.get(listPath({ order: 'up' }));
    expectValidation(order, 'order');
    expect(order.body.error.details.issue).toContain('asc');
    expect(order.body.error.details.issue).toContain('desc');
  });

  it('an unknown query parameter is refused, naming every parameter the list takes', async () => {
    const api = await freshApi();
    const answer = await api.get(listPath({ limit: 10 }));
    const known = 'page, per_page, sort, order, created_after, created_before, cursor';
    expectValidation(answer, 'limit');
    expect(answer.body.error.message).toBe(`Invalid limit: is not a known parameter; must be one of ${known}`);
    expectValidation(await api.get(listPath({ page: 1, status: 'active' })), 'status');
    expectValidation(await api.get(listPath({ perPage: 5 })), 'perPage');
  });

  it('Link has first, prev, next and last with the right pages and the other parameters kept', async () => {
    const api = await freshApi();
    const query = { per_page: 10, sort: 'name', order: 'asc' };

    const first = linksOf(await list(api, query));
    expect(Object.keys(first).sort()).toEqual(['first', 'last', 'next']);
    expect([pageOf(first.first), pageOf(first.next), pageOf(first.last)]).toEqual([1, 2, 3]);

    const second = linksOf(await list(api, { ...query, page: 2 }));
    expect(Object.keys(second).sort()).toEqual(['first', 'last', 'next', 'prev']);
    expect([pageOf(second.first), pageOf(second.prev), pageOf(second.next), pageOf(second.last)]).toEqual([1, 1, 3, 3]);

    const third = linksOf(await list(api, { ...query, page: 3 }));
    expect(Object.keys(third).sort()).toEqual(['first', 'last', 'prev']);
    expect([pageOf(third.first), pageOf(third.prev), pageOf(third.last)]).toEqual([1, 2, 3]);

    const past = linksOf(await list(api, { ...query, page: 9 }));
    expect(past.next).toBeUndefined();
    // prev of a page past the end leads back to the last page that has items.
    expect([pageOf(past.first), pageOf(past.prev), pageOf(past.last)]).toEqual([1, 3, 3]);

    for (const link of [...Object.values(first), ...Object.values(second), ...Object.values(third), ...Object.values(past)]) {
      relative(link);
      expect(link.searchParams.get('per_page')).toBe('10');
      expect(link.searchParams.get('sort')).toBe('name');
      expect(link.searchParams.get('order')).toBe('asc');
      expect(link.searchParams.getAll('page')).toHaveLength(1);
    }
    // Only `next` carries a cursor; the others are plain page numbers anyone can compute.
    expect(second.next?.searchParams.get('cursor')).toBeTruthy();
    for (const link of [first.first, first.last, second.prev, second.first, third.prev, third.last]) {
      expect(link?.searchParams.has('cursor')).toBe(false);
    }
    // Following prev, first and last gives the pages they name.
    const viaPrev = await api.get(relative(second.prev as URL));
    expect(viaPrev.body.meta.page).toBe(1);
    expect(ids(viaPrev)).toEqual(expectedOrder(projects, 'name', 'asc').slice(0, 10));
    const viaLast = await api.get(relative(first.last as URL));
    expect(ids(viaLast)).toEqual(expectedOrder(projects, 'name', 'asc').slice(20));
  });

  it('the default list walks from page 1 to the end through next links', async () => {
    const api = await freshApi();
    const pages = await walk(api, '/projects');
    expect(pages).toHaveLength(2);
    expect(pages.flatMap(ids)).toEqual(expectedOrder(projects, 'created_at', 'desc'));
    const lastLinks = linksOf(pages[1] as ApiAnswer);
    expect(lastLinks.next).toBeUndefined();
    expect(pageOf(lastLinks.prev)).toBe(1);
  });

  it('a cursor only works with the sort, order, per_page, filters and page it was made for', async () => {
    const api = await freshApi();
    const query = { per_page: 5, sort: 'name', order: 'asc' };
    const next = linksOf(await list(api, query)).next as URL;
    const cursor = next.searchParams.get('cursor') as string;
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);

    // As given, it works.
    const followed = await api.get(relative(next));
    expect(followed.status).toBe(200);
    expect(ids(followed)).toEqual(expectedOrder(projects, 'name', 'asc').slice(5, 10));

    const misuse = (changes: Record<string, string | number>) => api.get(listPath({ ...query, page: 2, cursor, ...changes }));
    expectValidation(await misuse({ sort: 'created_at' }), 'cursor');
    expectValidation(await misuse({ sort: 'updated_at' }), 'cursor');
    expectValidation(await misuse({ order: 'desc' }), 'cursor');
    expectValidation(await misuse({ per_page: 6 }), 'cursor');
    expectValidation(await misuse({ page: 3 }), 'cursor');
    expectValidation(await misuse({ created_after: '2026-01-01' }), 'cursor');
    // Without sort and order the defaults (created_at, desc) apply: another query.
    expectValidation(await api.get(listPath({ per_page: 5, page: 2, cursor })), 'cursor');
  });

  it('a garbled cursor is refused with 422', async () => {
    const api = await freshApi();
    const query = { per_page: 5, page: 2 };
    for (const cursor of ['not-a-cursor', '%%%', 'e30', base64url('{"page":2}'), base64url('[1,2]'), base64url('null'), 'x'.repeat(300)]) {
      const answer = await api.get(listPath({ ...query, cursor }));
      expectValidation(answer, 'cursor');
    }
    expectValidation(await api.get(listPath({ ...query, cursor: 'x'.repeat(2049) })), 'cursor');
  });

  it("a tampered cursor position is a 422, never a 500, and can only ever reach the caller's own list", async () => {
    const api = await freshApi();
    const query = { per_page: 5 };
    const cursor = (linksOf(await list(api, query)).next as URL).searchParams.get('cursor') as string;
    const content = decoded(cursor);
    const forged = (position: unknown): string => base64url(JSON.stringify({ ...content, position }));

    for (const position of [
      {},
      { pk: 'ACCOUNT#acct_someone_else#MODE#live#PROJECTS', sk: 'PROJECT#proj_x' },
      { pk: 1, sk: 2 },
      { sk: 2 },
      { sk: 'PROJECT#proj_x', extra: 'x' },
    ]) {
      const answer = await api.get(listPath({ ...query, page: 2, cursor: forged(position) }));
      expect({ position, status: answer.status, code: answer.body?.error?.code, field: answer.body?.error?.details?.field }).toEqual({
        position,
        status: 422,
        code: 'validation_error',
        field: 'cursor',
      });
    }
    // A well-formed position is only a place in the caller's own collection.
    const mine = await api.get(listPath({ ...query, page: 2, cursor: forged({ sk: 'PROJECT#proj_0' }) }));
    expect(mine.status).toBe(200);
  });

  it('a cursor of another account, or of the other mode, is refused with 422 (a shared next link must not 500)', async () => {
    const other = await newAccount();
    await seed(liveTenant(other), fixtureSeeds.slice(0, 8));
    const otherNext = linksOf(await list(as(other.live.key), { per_page: 5 })).next as URL;
    const cursor = otherNext.searchParams.get('cursor') as string;
    // As given, the link works for its own account.
    expect((await as(other.live.key).get(relative(otherNext))).status).toBe(200);

    for (const [who, api] of [
      ['another account', await freshApi()],
      ['the same account in test mode', as(other.test.key)],
    ] as const) {
      const answer = await api.get(relative(otherNext));
      expect({ who, status: answer.status, code: answer.body?.error?.code, field: answer.body?.error?.details?.field }).toEqual({
        who,
        status: 422,
        code: 'validation_error',
        field: 'cursor',
      });
    }
    expect(cursor).toBeTruthy();
  });
});

describe('project lists: created_after and created_before', () => {
  const D = dayStart('2026-04-15');
  let account: TestAccount;
  let byName: Record<string, Project>;
  let all: Project[];
  const freshApi = async (): Promise<Api> => as((await account.newKey('live')).key);

  beforeAll(async () => {
    account = await newAccount();
    all = await seed(liveTenant(account), [
      { name: 'Early', createdAt: D - 10 * dayMs, updatedAt: D + 20 * dayMs },
      { name: 'last moment before', createdAt: D - 1, updatedAt: D + 2 * dayMs },
      { name: 'Midnight', createdAt: D, updatedAt: D + 30 * dayMs },
      { name: 'noon', createdAt: D + 12 * hour, updatedAt: D + 12 * hour },
      { name: 'Another midnight', createdAt: D + dayMs, updatedAt: D + 3 * dayMs },
      { name: 'late', createdAt: D + 10 * dayMs, updatedAt: D + 10 * dayMs },
    ]);
    byName = Object.fromEntries(all.map((p) => [p.name, p]));
    expect(byName['last moment before']?.created_at).toBe('2026-04-14T23:59:59.999Z');
    expect(byName['Midnight']?.created_at).toBe('2026-04-15T00:00:00.000Z');
    expect(byName['Another midnight']?.created_at).toBe('2026-04-16T00:00:00.000Z');
  });

  const pick = (...wanted: string[]): Project[] => wanted.map((name) => byName[name] as Project);

  it('created_after=D includes D 00:00:00.000 and later, excludes D-1 23:59:59.999', async () => {
    const api = await freshApi();
    const answer = await list(api, { created_after: '2026-04-15', order: 'asc' });
    expect(answer.body.data.map((p: Project) => p.name)).toEqual(['Midnight', 'noon', 'Another midnight', 'late']);
    expect(answer.body.meta).toEqual({ page: 1, per_page: 20, total: 4, total_pages: 1 });
  });

  it('created_before=D+1 excludes D+1 00:00:00.000 and includes D 12:00', async () => {
    const api = await freshApi();
    const answer = await list(api, { created_before: '2026-04-16', order: 'asc' });
    expect(answer.body.data.map((p: Project) => p.name)).toEqual(['Early', 'last moment before', 'Midnight', 'noon']);
    expect(answer.body.meta).toEqual({ page: 1, per_page: 20, total: 4, total_pages: 1 });
  });

  it('both combined: exactly day D', async () => {
    const api = await freshApi();
    const answer = await list(api, { created_after: '2026-04-15', created_before: '2026-04-16' });
    expect(answer.body.data.map((p: Project) => p.name)).toEqual(['noon', 'Midnight']);
    expect(answer.body.meta).toEqual({ page: 1, per_page: 20, total: 2, total_pages: 1 });
  });

  const filters: Array<[string, Record<string, string>, () => Project[]]> = [
    ['no filter', {}, () => all],
    ['created_after', { created_after: '2026-04-15' }, () => pick('Midnight', 'noon', 'Another midnight', 'late')],
    ['created_before', { created_before: '2026-04-16' }, () => pick('Early', 'last moment before', 'Midnight', 'noon')],
    ['both', { created_after: '2026-04-15', created_before: '2026-04-16' }, () => pick('Midnight', 'noon')],
  ];

  it.each(filters)('%s: the same items and the true total under every sort and order, page by page', async (_label, filter, expected) => {
    const api = await freshApi();
    for (const [sort, order] of sortOrders) {
      const want = expectedOrder(expected(), sort, order);
      const whole = await list(api, { ...filter, sort, order });
      expect({ sort, order, ids: ids(whole), meta: whole.body.meta }).toEqual({
        sort,
        order,
        ids: want,
        meta: { page: 1, per_page: 20, total: want.length, total_pages: 1 },
      });
    }
    // One per page, walked and jumped, under each sort (the name and update orders filter an index).
    for (const sort of sorts) {
      const want = expectedOrder(expected(), sort, 'asc');
      const pages = await walk(api, listPath({ ...filter, sort, order: 'asc', per_page: 2 }));
      expect({ sort, ids: pages.flatMap(ids), totals: pages.map((p) => p.body.meta.total) }).toEqual({
        sort,
        ids: want,
        totals: pages.map(() => want.length),
      });
      const last = Math.ceil(want.length / 2);
      const jumped = await list(api, { ...filter, sort, order: 'asc', per_page: 2, page: last });
      expect({ sort, ids: ids(jumped) }).toEqual({ sort, ids: ids(pages[last - 1] as ApiAnswer) });
    }
  });

  it('invalid dates are refused: 2026-02-30, 2026-13-01, 26-1-1, a timestamp', async () => {
    const api = await freshApi();
    for (const field of ['created_after', 'created_before']) {
      for (const value of ['2026-02-30', '2026-13-01', '26-1-1', '2026-04-15T00:00:00Z', 'yesterday', '']) {
        const answer = await api.get(listPath({ [field]: value }));
        expect({ value, status: answer.status, code: answer.body?.error?.code, field: answer.body?.error?.details?.field }).toEqual({
          value,
          status: 422,
          code: 'validation_error',
          field,
        });
      }
    }
  });

  /** A range that holds nothing may be answered as an empty list or refused as invalid, never as a 500. */
  const expectEmptyOrRefused = (answer: ApiAnswer, context: unknown, total: number, fields: string[]): void => {
    const outcome =
      answer.status === 422 && answer.body?.error?.code === 'validation_error' && fields.includes(answer.body.error.details?.field)
        ? 'refused'
        : answer.status === 200 && answer.body?.meta?.total === total && answer.body?.data?.length === Math.min(total, 20)
          ? 'answered'
          : `${answer.status} ${answer.text}`;
    expect({ context, outcome }).toEqual({ context, outcome: expect.stringMatching(/^(refused|answered)$/) });
  };

  it('an empty date range (created_after on or after created_before) is an empty list or a 422, not a 500', async () => {
    const api = await freshApi();
    for (const range of [
      { created_after: '2026-04-15', created_before: '2026-04-15' },
      { created_after: '2026-04-16', created_before: '2026-04-15' },
    ]) {
      for (const sort of sorts) {
        expectEmptyOrRefused(await api.get(listPath({ ...range, sort })), { range, sort }, 0, ['created_after', 'created_before']);
      }
    }
  });

  it('dates before 1970 are answered (or refused with 422), not a 500', async () => {
    const api = await freshApi();
    expectEmptyOrRefused(await api.get(listPath({ created_after: '1969-12-31' })), 'created_after=1969-12-31', all.length, [
      'created_after',
    ]);
    expectEmptyOrRefused(await api.get(listPath({ created_before: '1970-01-01' })), 'created_before=1970-01-01', 0, ['created_before']);
    expectEmptyOrRefused(
      await api.get(listPath({ created_before: '1969-06-01', sort: 'name' })),
      'created_before=1969-06-01&sort=name',
      0,
      ['created_before'],
    );
  });
});

describe('project lists: totals follow creates and deletes', () => {
  it('meta.total (with and without a date filter) counts creates and deletes', async () => {
    const { live } = await newAccount();
    const api = as(live.key);
    const repository = 'https://github.com/acme/app';
    const created: Project[] = [];
    for (const name of ['one', 'two', 'three']) {
      const answer = await api.post('/projects', { name, repository });
      expect(answer.status).toBe(201);
      created.push(answer.body.data);
    }
    const today = (created[0] as Project).created_at.slice(0, 10);
    const totals = async (): Promise<number[]> => [
      (await list(api)).body.meta.total,
      (await list(api, { sort: 'name' })).body.meta.total,
      (await list(api, { created_after: today })).body.meta.total,
    ];
    expect(await totals()).toEqual([3, 3, 3]);

    expect((await api.delete(`/projects/${(created[1] as Project).id}`)).status).toBe(204);
    expect(await totals()).toEqual([2, 2, 2]);
    const afterDelete = await list(api);
    expect(ids(afterDelete).sort()).toEqual([(created[0] as Project).id, (created[2] as Project).id].sort());

    // Deleting an unknown project changes nothing.
    expect((await api.delete(`/projects/${(created[1] as Project).id}`)).status).toBe(404);
    expect(await totals()).toEqual([2, 2, 2]);

    const fourth = await api.post('/projects', { name: 'four', repository });
    expect(fourth.status).toBe(201);
    expect(await totals()).toEqual([3, 3, 3]);
    expect(ids(await list(api))[0]).toBe(fourth.body.data.id);
  });

  it('a walk through next links sees every project there throughout once, while others are created and deleted', async () => {
    const start = Date.parse('2026-05-01T00:00:00.000Z');
    const repository = 'https://github.com/acme/app';

    // Newer projects created after the first page (they go before it, newest first): the count grows
    // beyond what is left after the walk's position, and no page may come again.
    const growing = await newAccount();
    const api = as(growing.live.key);
    const first = await seed(
      liveTenant(growing),
      Array.from({ length: 12 }, (_, i) => ({ name: `p${i}`, createdAt: start + i * minute })),
    );
    const seen = await walkWhile(api, '/projects?per_page=5', async (pagesRead) => {
      if (pagesRead !== 1) return;
      for (const name of ['n1', 'n2', 'n3', 'n4', 'n5', 'n6']) expect((await api.post('/projects', { name, repository })).status).toBe(201);
    });
    expect(seen).toEqual(expectedOrder(first, 'created_at', 'desc'));

    // Projects already read deleted after the first page: the count shrinks below what is left to
    // read, and nothing after it may be missed.
    const shrinking = await newAccount();
    const other = as(shrinking.live.key);
    const second = await seed(
      liveTenant(shrinking),
      Array.from({ length: 12 }, (_, i) => ({ name: `q${i}`, createdAt: start + i * minute })),
    );
    const ordered = expectedOrder(second, 'created_at', 'desc');
    const read = await walkWhile(other, '/projects?per_page=5', async (pagesRead) => {
      if (pagesRead !== 1) return;
      for (const id of ordered.slice(0, 4)) expect((await other.delete(`/projects/${id}`)).status).toBe(204);
    });
    expect(read).toEqual(ordered);
  });

  it('an empty collection: no items, total 0, first and last link to page 1', async () => {
    const { live } = await newAccount();
    const answer = await list(as(live.key));
    expect(answer.body).toEqual({ data: [], meta: { page: 1, per_page: 20, total: 0, total_pages: 0 } });
    const links = linksOf(answer);
    expect(Object.keys(links).sort()).toEqual(['first', 'last']);
    expect([pageOf(links.first), pageOf(links.last)]).toEqual([1, 1]);
  });
});

describe('project lists: live and test mode', () => {
  it('a test-mode key lists none of the live projects, and a live key none of the test ones', async () => {
    const account = await newAccount();
    const live = as(account.live.key);
    const test = as(account.test.key);
    const repository = 'https://github.com/acme/app';

    const liveIds: string[] = [];
    for (const name of ['live one', 'live two']) liveIds.push((await live.post('/projects', { name, repository })).body.data.id);
    // Plus seeded live projects, to be sure the test list is not merely short.
    liveIds.push(...(await seed(liveTenant(account), fixtureSeeds.slice(0, 5))).map((p) => p.id));
    const testProject: Project = (await test.post('/projects', { name: 'test one', repository })).body.data;
    const testIds = [testProject.id];

    // The day the project was created in, not the clock's day now: the test may run across midnight UTC.
    const today = testProject.created_at.slice(0, 10);
    const queries: Array<Record<string, string | number>> = [
      {},
      { sort: 'name' },
      { sort: 'updated_at', order: 'asc' },
      { created_before: '2099-01-01' },
      { per_page: 100 },
    ];
    for (const query of queries) {
      const ofTest = await list(test, query);
      expect({ query, ids: ids(ofTest), total: ofTest.body.meta.total }).toEqual({ query, ids: testIds, total: 1 });
      const ofLive = await list(live, { ...query, per_page: 100 });
      expect({ query, ids: ids(ofLive).sort(), total: ofLive.body.meta.total }).toEqual({
        query,
        ids: [...liveIds].sort(),
        total: liveIds.length,
      });
    }
    const ofTestToday = await list(test, { created_after: today });
    expect(ids(ofTestToday)).toEqual(testIds);

    // Nor can either read the other's project by id.
    expect((await test.get(`/projects/${liveIds[0]}`)).status).toBe(404);
    expect((await live.get(`/projects/${testIds[0]}`)).status).toBe(404);
  });
});
