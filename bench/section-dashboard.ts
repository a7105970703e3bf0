import { type CallMeter, meterDynamoCalls, serviceCalls } from './dynamodb-calls';
import { type BenchRuntime, newBenchAccount } from './local-runtime';
import { type Check, fixed, heading, passFail, printTable, ratio } from './report';
import { median, round } from './stats';

/**
 * Section 8: the dashboard. Each page's time beside the API call it wraps (the same list through
 * the same use case, by key instead of session), median of sequential requests on the local
 * runtime, and the JavaScript each page loads (every script it names, fetched as the browser would).
 * Targets from the issue: a page within 1.5× of its API call, no page over ~50 KB of JavaScript.
 */

export interface DashboardSettings {
  requests: number;
  warmup: number;
}

/** Each page and the API call it wraps; the Requests page wraps none (it reads the API's own log). */
const pages: { page: string; path: string; api?: string }[] = [
  { page: 'Home', path: '/dashboard', api: '/v1/events' },
  { page: 'Projects', path: '/dashboard/projects', api: '/v1/projects' },
  { page: 'Workflows', path: '/dashboard/workflows', api: '/v1/workflows' },
  { page: 'Security', path: '/dashboard/security', api: '/v1/security/findings' },
  { page: 'Deployments', path: '/dashboard/deployments', api: '/v1/deployments' },
  { page: 'Tests', path: '/dashboard/tests', api: '/v1/tests' },
  { page: 'Webhooks', path: '/dashboard/webhooks', api: '/v1/webhooks' },
  { page: 'API keys', path: '/dashboard/developers/api-keys' },
  { page: 'Requests', path: '/dashboard/developers/requests' },
];

const targetRatio = 1.5;
const targetScriptBytes = 50 * 1024;

/** A signed-in browser session without a browser: the session cookie of a real sign-in. */
const signIn = async (origin: string, email: string, password: string): Promise<string> => {
  const form = await fetch(`${origin}/dashboard/sign-in`);
  const formCookies = form.headers.getSetCookie().map((c) => c.split(';')[0]);
  const token = /name="csrf_token" value="([^"]+)"/.exec(await form.text())?.[1];
  if (!token) throw new Error('the sign-in page has no CSRF token');
  const answer = await fetch(`${origin}/dashboard/sign-in`, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      'Content-Type': 'application/x-www-form-urlencoded',
      'Sec-Fetch-Site': 'same-origin',
      Origin: 'null',
      Cookie: formCookies.join('; '),
    },
    body: new URLSearchParams({ csrf_token: token, email, password }).toString(),
  });
  if (answer.status !== 303) throw new Error(`sign-in answered ${answer.status}`);
  return [...formCookies, ...answer.headers.getSetCookie().map((c) => c.split(';')[0])].join('; ');
};

const timed = async (url: string, headers: Record<string, string>): Promise<{ ms: number; status: number; text: string }> => {
  const started = performance.now();
  const response = await fetch(url, { headers, redirect: 'manual' });
  const text = await response.text();
  return { ms: performance.now() - started, status: response.status, text };
};

/** The median time of the measured requests and the DynamoDB calls each made (the load does not move that figure). */
const measure = async (
  url: string,
  headers: Record<string, string>,
  settings: DashboardSettings,
  meter: CallMeter,
): Promise<{ ms: number; calls: number }> => {
  for (let i = 0; i < settings.warmup; i++) await timed(url, headers);
  const times: number[] = [];
  meter.reset();
  for (let i = 0; i < settings.requests; i++) {
    const { ms, status } = await timed(url, headers);
    if (status !== 200) throw new Error(`${url} answered ${status}`);
    times.push(ms);
  }
  return { ms: median(times), calls: serviceCalls(meter.read()) / settings.requests };
};

/** Every script the page names (`<script src>`), fetched: the JavaScript a browser would load for it. */
const scriptBytes = async (origin: string, html: string): Promise<number> => {
  const sources = [...html.matchAll(/<script[^>]*\bsrc="([^"]+)"/g)].map((m) => m[1] as string);
  let bytes = 0;
  for (const src of new Set(sources)) bytes += (await (await fetch(new URL(src, origin))).arrayBuffer()).byteLength;
  return bytes;
};

export interface DashboardRow {
  page: string;
  pageMs: number;
  /** DynamoDB calls per request (the runtime's own, in AWS too). */
  pageCalls: number;
  apiMs?: number;
  apiCalls?: number;
  ratio?: number;
  scriptBytes: number;
}

export const benchDashboard = async (
  runtime: BenchRuntime,
  settings: DashboardSettings,
): Promise<{ rows: DashboardRow[]; checks: Check[] }> => {
  heading('8. The dashboard: page time beside its API call, JavaScript per page');
  const origin = `http://127.0.0.1:${runtime.port}`;
  // Loaded here, after the runtime set the log level: the logger reads it when first loaded.
  const { peopleDeps } = await import('../functions/adapters/dynamodb/people-deps');
  const { createUser } = await import('../functions/core/users/manage-users');
  const { account, key } = await newBenchAccount(runtime.table, 'dashboard');
  const password = `bench pass phrase ${Math.random().toString(36).slice(2)}`;
  const email = `bench-dashboard-${Date.now()}@example.com`;
  await createUser({ email, accountId: account.id, role: 'admin', password }, peopleDeps(runtime.table));
  const cookie = await signIn(origin, email, password);
  const auth = { Authorization: `Bearer ${key}` };
  // Something to list on every page: a few projects and webhooks, and the requests that made them.
  for (let i = 0; i < 5; i++) {
    await fetch(`${origin}/v1/projects`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: `Bench ${i}`, repository: `https://github.com/acme/bench-${i}` }),
    });
  }

  const rows: DashboardRow[] = [];
  const meter = meterDynamoCalls(runtime.dynamodbEndpoint);
  try {
    for (const { page, path, api } of pages) {
      const { text } = await timed(`${origin}${path}`, { Cookie: cookie });
      const pageRun = await measure(`${origin}${path}`, { Cookie: cookie }, settings, meter);
      const apiRun = api ? await measure(`${origin}${api}`, auth, settings, meter) : undefined;
      rows.push({
        page,
        pageMs: round(pageRun.ms, 2),
        pageCalls: round(pageRun.calls, 1),
        apiMs: apiRun === undefined ? undefined : round(apiRun.ms, 2),
        apiCalls: apiRun === undefined ? undefined : round(apiRun.calls, 1),
        ratio: apiRun === undefined ? undefined : round(pageRun.ms / apiRun.ms, 2),
        scriptBytes: await scriptBytes(origin, text),
      });
    }
  } finally {
    meter.close();
  }

  printTable(
    `Median of ${settings.requests} sequential requests each, after ${settings.warmup} to warm up (client-observed on 127.0.0.1)`,
    [
      { header: 'Page' },
      { header: 'Page ms' },
      { header: 'Page calls' },
      { header: 'API call' },
      { header: 'API ms' },
      { header: 'API calls' },
      { header: 'Page / API' },
      { header: 'JS KB' },
    ],
    rows.map((row) => [
      row.page,
      fixed(row.pageMs, 2),
      fixed(row.pageCalls, 1),
      pages.find((p) => p.page === row.page)?.api ?? '—',
      row.apiMs === undefined ? '—' : fixed(row.apiMs, 2),
      row.apiCalls === undefined ? '—' : fixed(row.apiCalls, 1),
      row.ratio === undefined ? '—' : ratio(row.ratio),
      fixed(row.scriptBytes / 1024, 1),
    ]),
    [
      'A page reads the session, user, membership, account and failed-webhook count in one batch where its API call reads the credential: the same round trips.',
      'Calls: DynamoDB calls per request made by the runtime (session touches and rate-limit writes included); the load does not move them.',
      'API keys lists keys the API has no list call for; Requests reads the API log, not the table: no ratio for either.',
    ],
  );

  const compared = rows.filter((row) => row.ratio !== undefined);
  const worstRatio = compared.reduce((worst, row) => ((row.ratio ?? 0) > (worst.ratio ?? 0) ? row : worst), compared[0] as DashboardRow);
  const heaviest = rows.reduce((worst, row) => (row.scriptBytes > worst.scriptBytes ? row : worst), rows[0] as DashboardRow);
  const checks: Check[] = [
    {
      section: 'dashboard',
      name: `Page time ≤ ${targetRatio}× its API call`,
      pass: compared.every((row) => (row.ratio ?? Infinity) <= targetRatio),
      detail: `worst ${worstRatio.page} ${ratio(worstRatio.ratio ?? NaN)} (${fixed(worstRatio.pageMs, 2)} ms vs ${fixed(worstRatio.apiMs ?? NaN, 2)} ms)`,
    },
    {
      section: 'dashboard',
      name: 'JavaScript per page ≤ 50 KB',
      pass: rows.every((row) => row.scriptBytes <= targetScriptBytes),
      detail: `largest ${heaviest.page} ${fixed(heaviest.scriptBytes / 1024, 1)} KB`,
    },
  ];
  console.log(`\n  ${checks.map((c) => `${passFail(c.pass)} ${c.name}: ${c.detail}`).join('\n  ')}`);
  return { rows, checks };
};
