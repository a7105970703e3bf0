import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { peopleDeps } from '../../../functions/adapters/dynamodb/people-deps';
import { createUser } from '../../../functions/core/users/manage-users';
import { checkedFetch } from './contract';
import { eventually } from './receiver';
import { apiUrl, newAccount, runtimeTable } from './runtime';

/** The service's origin (the dashboard, the authorization server), as the runtime printed it. */
export const origin = (): string => new URL(apiUrl()).origin;

export interface WebAnswer {
  status: number;
  headers: Headers;
  text: string;
  /** Every Set-Cookie of the answer, as sent. */
  setCookies: string[];
  location: string | null;
}

/** The CSRF token of the first form on a page. */
export const csrfTokenIn = (html: string): string => {
  const token = /name="csrf_token" value="([^"]+)"/.exec(html)?.[1];
  if (!token) throw new Error(`no form with a CSRF token on the page:\n${html.slice(0, 500)}`);
  return token;
};

const entities: Record<string, string> = { '&quot;': '"', '&#x27;': "'", '&#39;': "'", '&lt;': '<', '&gt;': '>', '&amp;': '&' };

/** An attribute's value as a browser reads it (the page escapes quotes, as in an entity tag). */
const unescaped = (value: string): string => value.replace(/&(?:quot|#x27|#39|lt|gt|amp);/g, (entity) => entities[entity] ?? entity);

/**
 * The hidden fields of the form posting to `action` that carries `label` as its accessible name
 * when given (the first such form on the page otherwise), their values as a browser sends them.
 */
export const formFieldsIn = (html: string, action: string, label?: string): Record<string, string> => {
  const form = [...html.matchAll(/<form\b[^>]*>[\s\S]*?<\/form>/g)]
    .map((match) => match[0])
    .find((text) => text.includes(`action="${action}"`) && (label === undefined || text.includes(`aria-label="${label}"`)));
  if (!form) throw new Error(`no form posting to ${action} on the page`);
  return Object.fromEntries(
    [...form.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)].map((field) => [
      field[1] as string,
      unescaped(field[2] as string),
    ]),
  );
};

/**
 * A browser without a browser: keeps cookies, never follows redirects by itself, posts forms as
 * browsers do (application/x-www-form-urlencoded, Origin and Sec-Fetch-Site of the page).
 */
export const webClient = () => {
  const cookies = new Map<string, string>();
  const remember = (setCookies: string[]) => {
    for (const line of setCookies) {
      const [pair = ''] = line.split(';');
      const at = pair.indexOf('=');
      const name = pair.slice(0, at);
      const value = pair.slice(at + 1);
      if (/Max-Age=0/i.test(line)) cookies.delete(name);
      else cookies.set(name, value);
    }
  };
  const send = async (
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    path: string,
    form?: Record<string, string>,
    headers: Record<string, string> = {},
  ): Promise<WebAnswer> => {
    const url = path.startsWith('http') ? path : `${origin()}${path}`;
    const response = await checkedFetch()(url, {
      method,
      redirect: 'manual',
      headers: {
        ...(cookies.size > 0 ? { Cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join('; ') } : {}),
        ...(form ? { 'Content-Type': 'application/x-www-form-urlencoded', 'Sec-Fetch-Site': 'same-origin', Origin: 'null' } : {}),
        ...headers,
      },
      body: form ? new URLSearchParams(form).toString() : undefined,
    });
    const setCookies = response.headers.getSetCookie();
    remember(setCookies);
    return {
      status: response.status,
      headers: response.headers,
      text: await response.text(),
      setCookies,
      location: response.headers.get('location'),
    };
  };
  return {
    cookies,
    get: (path: string, headers?: Record<string, string>) => send('GET', path, undefined, headers),
    /** A method no page form sends (a script's, a tool's), with no body. */
    request: (method: 'PUT' | 'PATCH' | 'DELETE', path: string) => send(method, path),
    post: (path: string, form: Record<string, string>, headers?: Record<string, string>) => send('POST', path, form, headers),
    /** GETs the page of a form and posts it with the form's CSRF token. */
    async submit(pagePath: string, action: string, fields: Record<string, string>) {
      const page = await send('GET', pagePath);
      return send('POST', action, { csrf_token: csrfTokenIn(page.text), ...fields });
    },
    async signIn(email: string, password: string, returnTo?: string) {
      const page = await send('GET', returnTo ? `/dashboard/sign-in?return_to=${encodeURIComponent(returnTo)}` : '/dashboard/sign-in');
      return send('POST', '/dashboard/sign-in', {
        csrf_token: csrfTokenIn(page.text),
        email,
        password,
        ...(returnTo ? { return_to: returnTo } : {}),
      });
    },
  };
};

export type WebClient = ReturnType<typeof webClient>;

let people = 0;

/** A fresh account (with its keys) and a user of it with a password. */
export const newPerson = async (options: { role?: 'admin' | 'viewer'; password?: string } = {}) => {
  const testAccount = await newAccount();
  people += 1;
  const email = `person-${Date.now()}-${people}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const password = options.password ?? `pass phrase ${Math.random().toString(36).slice(2)}`;
  const deps = peopleDeps(await runtimeTable());
  const created = await createUser({ email, accountId: testAccount.account.id, role: options.role ?? 'admin', password }, deps);
  return { ...testAccount, user: created.user, email, password, deps };
};

/** The e-mails the local runtime sent to `to` so far (its outbox folder), oldest first. */
export const outboxOf = async (to: string): Promise<{ to: string; subject: string; text: string }[]> => {
  const dir = join(process.env.IT_DATA_DIR as string, 'outbox');
  const files = (await readdir(dir).catch(() => [] as string[])).filter((file) => file.endsWith('.json')).sort();
  const mails = await Promise.all(files.map(async (file) => JSON.parse(await readFile(join(dir, file), 'utf8'))));
  return mails.filter((mail) => mail.to === to);
};

export const waitForMail = (to: string, count = 1) =>
  eventually(
    async () => {
      const mails = await outboxOf(to);
      return mails.length >= count ? mails : undefined;
    },
    10_000,
    () => `no e-mail to ${to} in the outbox`,
  );
