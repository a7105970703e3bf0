import { setTimeout as delay } from 'node:timers/promises';

/**
 * What the API commands print: human tables by default, one JSON document with --json, progress
 * on stderr (a spinner when it is a terminal, one line per change otherwise), so stdout stays clean.
 */
export interface Output {
  json: boolean;
  /** A value for scripts (--json) or its human rendering. */
  result(value: unknown, human: () => string): void;
  line(text: string): void;
  error(text: string): void;
  progress(): Progress;
}

export interface Progress {
  /**
   * Shows what is under way now, and for how long (`elapsed`); on a terminal it spins until the next
   * update, elsewhere a line is printed only when `text` changes.
   */
  update(text: string, elapsed?: string): void;
  /** A line that stays (a finished step). */
  log(text: string): void;
  stop(): void;
}

const withElapsed = (text: string, elapsed?: string) => (elapsed ? `${text} (${elapsed})` : text);

const frames = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

const spinner = (stream: NodeJS.WriteStream): Progress => {
  let text = '';
  let frame = 0;
  const draw = () => stream.write(`\r\x1b[2K${frames[frame % frames.length]} ${text}`);
  const timer = setInterval(() => {
    frame += 1;
    if (text) draw();
  }, 100);
  timer.unref();
  return {
    update(next, elapsed) {
      text = withElapsed(next, elapsed);
      draw();
    },
    log(line) {
      stream.write(`\r\x1b[2K${line}\n`);
      if (text) draw();
    },
    stop() {
      clearInterval(timer);
      stream.write('\r\x1b[2K');
    },
  };
};

const lines = (stream: NodeJS.WriteStream): Progress => {
  let last = '';
  return {
    update(text, elapsed) {
      if (text !== last) stream.write(`${withElapsed(text, elapsed)}\n`);
      last = text;
    },
    log(line) {
      stream.write(`${line}\n`);
    },
    stop() {},
  };
};

export const createOutput = (json: boolean, stdout = process.stdout, stderr = process.stderr): Output => ({
  json,
  result(value, human) {
    stdout.write(`${json ? JSON.stringify(value, null, 2) : human()}\n`);
  },
  line(text) {
    stdout.write(`${text}\n`);
  },
  error(text) {
    stderr.write(`${text}\n`);
  },
  progress() {
    return stderr.isTTY ? spinner(stderr) : lines(stderr);
  },
});

/** Columns padded to their widest cell; the last column is not padded. */
export const table = (headers: string[], rows: (string | number | null | undefined)[][]): string => {
  if (rows.length === 0) return '(none)';
  const cells = [headers, ...rows.map((row) => row.map((cell) => (cell === null || cell === undefined ? '-' : String(cell))))];
  const widths = headers.map((_, i) => Math.max(...cells.map((row) => (row[i] ?? '').length)));
  return cells.map((row) => row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i] ?? 0))).join('  ')).join('\n');
};

export const seconds = (ms: number | null | undefined): string => (ms === null || ms === undefined ? '' : `${(ms / 1000).toFixed(1)}s`);

/** The times every job resource carries (`duration_ms` only some). */
export interface JobTimes {
  started_at: string | null;
  completed_at: string | null;
  duration_ms?: number | null;
}

/** How long a job ran, or has run so far: by its own times, not the watcher's (nothing while it is queued). */
export const jobTime = (job: JobTimes): string => {
  if (typeof job.duration_ms === 'number') return seconds(job.duration_ms);
  if (!job.started_at) return '';
  const end = job.completed_at ? Date.parse(job.completed_at) : Date.now();
  return seconds(Math.max(0, end - Date.parse(job.started_at)));
};

/**
 * Resolves after `ms`, or at once when `signal` aborts (node's timer removes its abort listener when
 * it fires: `watch` and `listen` sleep on one signal for as long as they run).
 */
export const sleep = (ms: number, signal: AbortSignal): Promise<void> => delay(ms, undefined, { signal }).catch(() => undefined);
