import { writeFile } from 'node:fs/promises';

/** Formatting of the bench's console tables, and the JSON results file. */

export type Cell = string | number;

export interface Column {
  header: string;
  /** Numbers align right by default, text left. */
  align?: 'left' | 'right';
}

export interface Check {
  section: string;
  name: string;
  pass: boolean;
  detail: string;
}

/** A result the summary shows without a verdict (its section has no target). */
export interface Figure {
  section: string;
  name: string;
  value: string;
}

export const passFail = (pass: boolean): 'PASS' | 'FAIL' => (pass ? 'PASS' : 'FAIL');

/** A number with a fixed count of decimals; `—` for NaN. */
export const fixed = (value: number, digits = 1): string => (Number.isFinite(value) ? value.toFixed(digits) : '—');

/** A ratio such as `1.23×`. */
export const ratio = (value: number): string => `${fixed(value, 2)}×`;

const isNumeric = (cell: Cell): boolean => typeof cell === 'number' || /^[-+]?[\d.,]+( ?[×%]|[a-zA-Z]{0,3})?$/.test(cell);

const pad = (text: string, width: number, align: 'left' | 'right'): string =>
  align === 'right' ? text.padStart(width) : text.padEnd(width);

export const heading = (title: string): void => {
  console.log(`\n${'='.repeat(title.length + 4)}\n  ${title}\n${'='.repeat(title.length + 4)}`);
};

/** A plain-text table with a title and optional notes underneath. */
export const printTable = (
  title: string,
  columns: readonly Column[],
  rows: readonly (readonly Cell[])[],
  notes: readonly string[] = [],
): void => {
  const text = rows.map((row) => row.map(String));
  const widths = columns.map((column, i) => Math.max(column.header.length, ...text.map((row) => (row[i] ?? '').length)));
  const alignOf = (i: number, cell: Cell | undefined): 'left' | 'right' =>
    columns[i]?.align ?? (cell !== undefined && isNumeric(cell) ? 'right' : 'left');
  const line = (cells: readonly string[], aligns: readonly ('left' | 'right')[]): string =>
    cells.map((cell, i) => pad(cell, widths[i] ?? 0, aligns[i] ?? 'left')).join('  ');

  console.log(`\n${title}`);
  console.log(
    line(
      columns.map((c) => c.header),
      columns.map((c, i) => c.align ?? (i === 0 ? 'left' : 'right')),
    ),
  );
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  rows.forEach((row, r) =>
    console.log(
      line(
        text[r] ?? [],
        row.map((cell, i) => alignOf(i, cell)),
      ),
    ),
  );
  for (const note of notes) console.log(`  ${note}`);
};

export const printChecks = (checks: readonly Check[]): void => {
  printTable(
    'Targets',
    [
      { header: 'Result' },
      { header: 'Section', align: 'left' },
      { header: 'Target', align: 'left' },
      { header: 'Measured', align: 'left' },
    ],
    checks.map((check) => [passFail(check.pass), check.section, check.name, check.detail]),
  );
  const failed = checks.filter((check) => !check.pass).length;
  console.log(`\n${checks.length - failed} of ${checks.length} targets pass${failed > 0 ? `, ${failed} fail` : ''}.`);
};

export const printFigures = (figures: readonly Figure[]): void => {
  if (figures.length === 0) return;
  printTable(
    'Measured, no target',
    [
      { header: 'Section', align: 'left' },
      { header: 'Measure', align: 'left' },
      { header: 'Value', align: 'left' },
    ],
    figures.map((figure) => [figure.section, figure.name, figure.value]),
  );
};

export const writeJson = async (path: string, data: unknown): Promise<void> => {
  await writeFile(path, `${JSON.stringify(data, null, 2)}\n`);
};
