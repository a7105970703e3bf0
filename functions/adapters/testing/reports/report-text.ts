import { posix } from 'node:path';
import { maxFailureMessageChars, type RunTotals, type TestCaseResult } from '../../../core/testing/results';

/** What a report parser yields: the cases in report order and their totals. */
export interface ParsedReport {
  cases: TestCaseResult[];
  totals: RunTotals;
}

/** The report is not what the framework's reporter writes (empty, truncated, another format). */
export class ReportFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ReportFormatError';
  }
}

export interface ReportOptions {
  /** The repository root: absolute paths under it become repository-relative. */
  rootDir?: string;
}

// CSI and OSC escape sequences (colours, cursor moves, hyperlinks) that reporters leave in messages.

const ansiPattern = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u009b[0-?]*[ -/]*[@-~]/g;

export const stripAnsi = (text: string): string => text.replace(ansiPattern, '');

/** A stack frame inside node itself or a dependency (the test framework's own machinery): noise in a message. */
const isInternalFrame = (line: string): boolean =>
  /^\s*at\s/.test(line) && /node:internal\/|\(node:[\w/]+:\d+|[\\/]node_modules[\\/]|\(<anonymous>\)/.test(line);

const dropInternalFrames = (text: string): string =>
  text
    .split('\n')
    .filter((line) => !isInternalFrame(line))
    .join('\n');

/** A failure message as stored: colours and framework stack frames stripped, parts that repeat one another merged, capped; null when empty. */
export const failureText = (parts: readonly (string | null | undefined)[]): string | null => {
  let kept: string[] = [];
  for (const part of parts) {
    const text = dropInternalFrames(stripAnsi(part ?? '')).trim();
    if (text === '' || kept.some((earlier) => earlier.includes(text))) continue;
    kept = [...kept.filter((earlier) => !text.includes(earlier)), text];
  }
  const joined = kept.join('\n');
  if (joined === '') return null;
  return joined.length > maxFailureMessageChars ? `${joined.slice(0, maxFailureMessageChars - 1)}…` : joined;
};

const isAbsolutePath = (path: string): boolean => path.startsWith('/') || /^[A-Za-z]:\//.test(path);

/** A reported file path as a repository-relative `/` path when it lies under `rootDir`; otherwise as reported. */
export const repositoryFile = (path: string | null | undefined, rootDir: string | undefined): string | null => {
  if (!path) return null;
  const normalized = path.replace(/\\/g, '/');
  if (!isAbsolutePath(normalized)) return posix.normalize(normalized).replace(/^\.\//, '');
  if (rootDir) {
    const root = rootDir.replace(/\\/g, '/');
    const relative = posix.relative(root, normalized);
    if (relative !== '' && !relative.startsWith('../') && relative !== '..' && !isAbsolutePath(relative)) return relative;
  }
  return normalized;
};

/** Seconds (JUnit's `time`) as whole milliseconds; null when absent or not a number. */
export const secondsToMs = (value: string | undefined): number | null => {
  if (value === undefined || value.trim() === '') return null;
  const seconds = Number(value);
  return Number.isFinite(seconds) && seconds >= 0 ? Math.round(seconds * 1000) : null;
};
