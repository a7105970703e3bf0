import type { CheckStatus } from '../../core/workflows/stage-data';

/** The outcome of one check of one file, before check-files adds the path. */
export interface CheckResult {
  name: string;
  status: CheckStatus;
  message?: string;
  problems: Array<{ line: number | null; message: string }>;
}

export const skipped = (name: string, message: string): CheckResult => ({ name, status: 'skipped', message, problems: [] });

export const outcome = (name: string, problems: CheckResult['problems']): CheckResult =>
  problems.length === 0
    ? { name, status: 'passed', problems }
    : { name, status: 'failed', message: `${problems.length} problem${problems.length === 1 ? '' : 's'}`, problems };

/** 1-based line of a character offset. */
export const lineAt = (text: string, offset: number): number => {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
};
