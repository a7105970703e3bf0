import { type CapacityReport, type CapacityRow, type CapacitySettings, measureCapacity, type Units } from './capacity';
import type { BenchRuntime } from './local-runtime';
import { type Check, fixed, heading, printTable, ratio } from './report';

/** Section 3: DynamoDB capacity units per API operation. */

export const capacityTargets = { getRcu: 1, deepPageRatio: 1.5 } as const;

export interface CapacitySection extends CapacityReport {
  checks: Check[];
}

const calls = (units: Units): string => {
  const counts = new Map<string, number>();
  for (const call of units.calls) counts.set(call.replace(/Command$/, ''), (counts.get(call.replace(/Command$/, '')) ?? 0) + 1);
  return [...counts].map(([name, n]) => (n > 1 ? `${name}×${n}` : name)).join(' ') || '—';
};

const printRows = (report: CapacityReport): void => {
  printTable(
    'DynamoDB capacity units per request (ReturnConsumedCapacity TOTAL, reported by DynamoDB Local)',
    [
      { header: 'Operation' },
      { header: 'Cred RCU' },
      { header: 'Cred WCU' },
      { header: 'Op RCU' },
      { header: 'Op WCU' },
      { header: 'Total RCU' },
      { header: 'Total WCU' },
      { header: 'DynamoDB calls (credential; operation)', align: 'left' },
      { header: 'What', align: 'left' },
    ],
    report.rows.map((r) => [
      r.operation,
      fixed(r.credential.read),
      fixed(r.credential.write),
      fixed(r.work.read),
      fixed(r.work.write),
      fixed(r.total.read),
      fixed(r.total.write),
      `${calls(r.credential)}; ${calls(r.work)}`,
      r.detail,
    ]),
    [
      'Every row but "first use" is the steady state: the key was used by a warm-up request just before, so the credential check',
      'only reads (eventually consistent GetItem, 0.5 RCU) and does not rewrite last_used_at (refreshed at most once a minute).',
      'Cred = resolveCredential with dynamoCredentialRepository; Op = the project use case with dynamoProjectRepository.',
      `Lists: ${report.projectsSeeded} projects seeded in a fresh tenant first (${fixed(report.seedMs / 1000)} s), sort created_at desc; page ${report.deepPage} holds ${report.itemsOnDeepPage} projects, walking and jumping ${report.walkAndJumpAgree ? 'return the same ones' : 'DISAGREE on its content'}.`,
      'Writes count once more per GSI whose copy of the item changes (gsi1 and gsi2 project ALL attributes): touching last_used_at',
      'rewrites the credential in the table and both indexes (3 WCU); a rename moves both index keys (delete + put in each: 1 + 2 + 2).',
      'This DynamoDB Local reports 4 WCU per item written in a TransactWriteItems (table and each index); DynamoDB bills transactional',
      'writes at 2 WCU per KB, so create and delete are likely overstated up to 2× here.',
    ],
  );
};

const rowNamed = (report: CapacityReport, prefix: string): CapacityRow => {
  const row = report.rows.find((r) => r.operation.startsWith(prefix));
  if (!row) throw new Error(`no capacity row ${prefix}`);
  return row;
};

const checksOf = (report: CapacityReport): Check[] => {
  const get = rowNamed(report, 'get');
  const first = rowNamed(report, 'list page 1');
  const walked = rowNamed(report, `list page ${report.deepPage}, walking`);
  const deepRatio = walked.total.read / first.total.read;
  return [
    {
      section: 'capacity',
      name: `GET by id ≤ ${capacityTargets.getRcu} RCU (with credential check)`,
      pass: get.total.read <= capacityTargets.getRcu && get.total.write === 0,
      detail: `${fixed(get.total.read)} RCU (credential ${fixed(get.credential.read)} + get ${fixed(get.work.read)}), ${fixed(get.total.write)} WCU`,
    },
    {
      section: 'capacity',
      name: `walking: page ${report.deepPage} ≈ page 1 (within ${capacityTargets.deepPageRatio}×)`,
      pass: deepRatio <= capacityTargets.deepPageRatio && report.walkAndJumpAgree,
      detail: `page ${report.deepPage} ${fixed(walked.total.read)} RCU vs page 1 ${fixed(first.total.read)} RCU = ${ratio(deepRatio)}`,
    },
  ];
};

export const benchCapacity = async (runtime: BenchRuntime, settings: CapacitySettings): Promise<CapacitySection> => {
  heading('3. DynamoDB capacity per operation');
  console.log(`Seeding ${settings.projects} projects and measuring…`);
  const report = await measureCapacity(runtime.dynamodbEndpoint, runtime.tableName, settings);
  printRows(report);
  return { ...report, checks: checksOf(report) };
};
