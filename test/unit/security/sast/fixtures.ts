/**
 * Source trees for the sast scanner tests: insecure code with one planted issue per marked line,
 * and clean, ordinary modern JS/TS that must yield no finding at all.
 */

/** A planted issue: the file, the rule and severity expected, and a text found only on its line. */
export interface Planted {
  path: string;
  rule: string;
  severity: 'high' | 'medium' | 'low';
  marker: string;
}

export const insecureFiles: Record<string, string> = {
  'src/handlers.js': `'use strict';
const child_process = require('child_process');
const fs = require('fs');
const crypto = require('crypto');

function handle(req, res) {
  const userInput = req.body.expression;
  const result = eval(userInput);
  const body = req.body.code;
  const compiled = new Function(body);
  const dir = req.query.dir;
  child_process.exec(\`ls \${dir}\`, () => {});
  fs.readFile(req.query.path, () => {});
  const re = /(a+)+$/;
  const moduleName = req.query.plugin;
  const plugin = require(moduleName);
  crypto.pseudoRandomBytes(16);
  setTimeout("refresh()", 1000);
  res.send(String(re.test(dir)) + result + compiled + plugin);
}

module.exports = { handle };
`,
  'src/widget.js': `export function render(el, userHtml, x) {
  el.innerHTML = userHtml;
  document.write(x);
  el.insertAdjacentHTML('beforeend', userHtml);
}
`,
  'src/handlers.ts': `import { exec } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import * as crypto from 'node:crypto';

interface Request {
  query: Record<string, string | undefined>;
  params: { name: string };
  headers: Record<string, string>;
}

const apiKey: string = process.env.API_KEY ?? 'unset';

export async function handle(req: Request, userInput: string, body: string): Promise<unknown> {
  const value: unknown = eval(userInput);
  const compiled = new Function(body) as () => void;
  const dir: string = req.query.dir ?? '.';
  exec(\`ls \${dir}\`);
  const text = await readFile(req.query.path as string, 'utf8');
  const unsafe: RegExp = /(a+)+$/;
  crypto.pseudoRandomBytes(16);
  setTimeout('refresh()', 1000);
  const pattern = new RegExp(req.params.name);
  const mod: unknown = await import(req.query.module as string);
  if (apiKey === req.headers['x-api-key']) return 'ok';
  return [value, compiled, text, unsafe, pattern, mod];
}
`,
  'src/Preview.tsx': `export function Preview({ html }: { html: string }) {
  const mount = (el: HTMLElement | null): void => {
    if (el) el.innerHTML = html;
  };
  return <div ref={mount} />;
}
`,
};

export const planted: Planted[] = [
  { path: 'src/handlers.js', rule: 'no-eval', severity: 'high', marker: 'eval(userInput)' },
  { path: 'src/handlers.js', rule: 'no-new-func', severity: 'high', marker: 'new Function(body)' },
  { path: 'src/handlers.js', rule: 'security/detect-child-process', severity: 'medium', marker: 'child_process.exec(' },
  { path: 'src/handlers.js', rule: 'security/detect-non-literal-fs-filename', severity: 'medium', marker: 'fs.readFile(req.query.path' },
  { path: 'src/handlers.js', rule: 'security/detect-unsafe-regex', severity: 'medium', marker: '/(a+)+$/' },
  { path: 'src/handlers.js', rule: 'security/detect-non-literal-require', severity: 'medium', marker: 'require(moduleName)' },
  { path: 'src/handlers.js', rule: 'security/detect-pseudoRandomBytes', severity: 'medium', marker: 'pseudoRandomBytes(16)' },
  { path: 'src/handlers.js', rule: 'no-implied-eval', severity: 'high', marker: 'setTimeout("refresh()"' },
  { path: 'src/widget.js', rule: 'no-unsanitized/property', severity: 'high', marker: 'el.innerHTML = userHtml' },
  { path: 'src/widget.js', rule: 'no-unsanitized/method', severity: 'high', marker: 'document.write(x)' },
  { path: 'src/widget.js', rule: 'no-unsanitized/method', severity: 'high', marker: 'insertAdjacentHTML' },
  { path: 'src/handlers.ts', rule: 'no-eval', severity: 'high', marker: 'eval(userInput)' },
  { path: 'src/handlers.ts', rule: 'no-new-func', severity: 'high', marker: 'new Function(body)' },
  { path: 'src/handlers.ts', rule: 'security/detect-child-process', severity: 'medium', marker: 'exec(`ls' },
  { path: 'src/handlers.ts', rule: 'security/detect-non-literal-fs-filename', severity: 'medium', marker: 'readFile(req.query.path' },
  { path: 'src/handlers.ts', rule: 'security/detect-unsafe-regex', severity: 'medium', marker: '/(a+)+$/' },
  { path: 'src/handlers.ts', rule: 'security/detect-pseudoRandomBytes', severity: 'medium', marker: 'pseudoRandomBytes(16)' },
  { path: 'src/handlers.ts', rule: 'no-implied-eval', severity: 'high', marker: "setTimeout('refresh()'" },
  { path: 'src/handlers.ts', rule: 'security/detect-non-literal-regexp', severity: 'low', marker: 'new RegExp(req.params.name)' },
  { path: 'src/handlers.ts', rule: 'no-unsanitized/method', severity: 'medium', marker: 'await import(req.query.module' },
  {
    path: 'src/handlers.ts',
    rule: 'security/detect-possible-timing-attacks',
    severity: 'low',
    marker: "apiKey === req.headers['x-api-key']",
  },
  { path: 'src/Preview.tsx', rule: 'no-unsanitized/property', severity: 'high', marker: 'el.innerHTML = html' },
];

/** 1-based line of the first line containing `marker`. */
export const lineOf = (content: string, marker: string): number => {
  const index = content.split('\n').findIndex((line) => line.includes(marker));
  if (index < 0) throw new Error(`marker not found: ${marker}`);
  return index + 1;
};

export const cleanFiles: Record<string, string> = {
  'server/routes.js': `import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execFile } from 'node:child_process';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

const here = path.dirname(fileURLToPath(import.meta.url));
const TEMPLATE = path.join(here, 'templates', 'index.html');
const UUID = /^[\\da-f]{8}(?:-[\\da-f]{4}){3}-[\\da-f]{12}$/i;
const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const EMAIL = /^[\\w+.-]+@[\\w-]+(?:\\.[\\w-]+)+$/;

export async function getProject(req, res, db) {
  const { id } = req.params;
  if (!UUID.test(id)) return res.status(400).json({ error: 'invalid id' });
  const page = Math.max(1, Number.parseInt(String(req.query.page ?? '1'), 10) || 1);
  const items = await db.list(id, { page, limit: 50 });
  const byStatus = {};
  for (const item of items) byStatus[item.status] = (byStatus[item.status] ?? 0) + 1;
  for (let i = 0; i < items.length; i++) items[i].rank = i + 1;
  const template = await readFile(TEMPLATE, 'utf8');
  return res.json({ items, byStatus, template, slugOk: SLUG.test(req.query.slug ?? ''), emailOk: EMAIL.test(String(req.body.email)) });
}

export function verifySignature(signature, expected) {
  const a = Buffer.from(signature, 'hex');
  const b = Buffer.from(expected, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

export const newToken = () => randomBytes(32).toString('hex');

export function hashToken(token) {
  if (token === undefined || token === null) throw new Error('missing token');
  if (typeof token !== 'string') throw new TypeError('token must be a string');
  return createHash('sha256').update(token).digest('hex');
}

export function gitVersion() {
  return new Promise((resolve, reject) => {
    execFile('git', ['--version'], (error, stdout) => (error ? reject(error) : resolve(stdout.trim())));
  });
}

export function debounce(fn, ms) {
  let timer;
  return (...args) => {
    clearTimeout(timer);
    timer = setTimeout(() => fn(...args), ms);
  };
}
`,
  'server/config.cjs': `const path = require('node:path');
const fs = require('node:fs');

const defaults = require('./defaults.json');
const file = path.join(__dirname, 'settings.json');

function load() {
  const settings = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : {};
  return { ...defaults, ...settings, port: Number(process.env.PORT || 3000) };
}

module.exports = { load };
`,
  'server/legacy-script.js': `var done = false;
if (typeof module === 'undefined') return;
module.exports = function legacy(list) {
  var out = [];
  for (var i = 0; i < list.length; i++) out.push(list[i] * 2);
  done = true;
  return out;
};
`,
  'web/Greeting.jsx': `import { useEffect, useRef, useState } from 'react';

export function Greeting({ name, items }) {
  const ref = useRef(null);
  const [count, setCount] = useState(0);
  useEffect(() => {
    if (ref.current) ref.current.textContent = \`Hello, \${name}\`;
  }, [name]);
  return (
    <section>
      <h1 ref={ref} />
      <button onClick={() => setCount((c) => c + 1)}>Clicked {count} times</button>
      <ul>{items.map((item) => <li key={item.id}>{item.label}</li>)}</ul>
    </section>
  );
}

export function setStatus(el, status) {
  el.textContent = status;
  el.innerHTML = '';
  el.setAttribute('data-status', status);
  document.title = \`Status: \${status}\`;
}
`,
  'web/List.tsx': `import { useMemo } from 'react';

export interface Item {
  id: string;
  label: string;
  tags: readonly string[];
}

const byLabel = <T extends { label: string }>(a: T, b: T): number => a.label.localeCompare(b.label);

export function List({ items, filter }: { items: Item[]; filter: string }) {
  const visible = useMemo(() => items.filter((i) => i.label.toLowerCase().includes(filter.toLowerCase())).sort(byLabel), [items, filter]);
  return <ul>{visible.map((item) => <li key={item.id} title={item.tags.join(', ')}>{item.label}</li>)}</ul>;
}
`,
  'lib/util.ts': `import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

export enum Status {
  Open = 'open',
  Closed = 'closed',
}

export type Counts = Record<Status, number>;

export function count(statuses: readonly Status[]): Counts {
  const counts: Counts = { [Status.Open]: 0, [Status.Closed]: 0 };
  for (const status of statuses) counts[status] += 1;
  return counts;
}

export function pick<T extends object, K extends keyof T>(value: T, keys: readonly K[]): Pick<T, K> {
  const out = {} as Pick<T, K>;
  for (const key of keys) out[key] = value[key];
  return out;
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^\${}()|[\\]\\\\]/g, '\\\\$&');

export function highlight(text: string, word: string): string {
  return text.replace(new RegExp(escapeRegExp(word), 'gi'), (match) => \`**\${match}**\`);
}

/** Reads a data file of the application (the name comes from its own code). */
export async function readData(dir: string, name: string): Promise<unknown> {
  return JSON.parse(await readFile(join(dir, \`\${name}.json\`), 'utf8'));
}

export class Cache<V> {
  readonly #entries = new Map<string, { value: V; expires: number }>();

  constructor(private readonly ttlMs: number) {}

  get(key: string, now = Date.now()): V | undefined {
    const entry = this.#entries.get(key);
    if (!entry || entry.expires <= now) return undefined;
    return entry.value;
  }

  set(key: string, value: V, now = Date.now()): void {
    this.#entries.set(key, { value, expires: now + this.ttlMs });
  }
}

export function sameHash(hash: string, expected: string): boolean {
  if (hash === expected) return true;
  return false;
}

export const isIsoDate = (value: string): boolean => /^\\d{4}-\\d{2}-\\d{2}$/.test(value) && !Number.isNaN(Date.parse(value));

export async function* chunks<T>(items: AsyncIterable<T>, size: number): AsyncGenerator<T[]> {
  let chunk: T[] = [];
  for await (const item of items) {
    chunk.push(item);
    if (chunk.length === size) {
      yield chunk;
      chunk = [];
    }
  }
  if (chunk.length > 0) yield chunk;
}
`,
  'lib/types.d.ts': `export interface User {
  id: string;
  email: string;
}
declare global {
  interface Window {
    appVersion: string;
  }
}
`,
};
