import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { strToU8, zipSync } from 'fflate';
import { advisoriesCommand } from '../../../bin/commands/advisories';
import { osvDirectorySource } from '../../../functions/adapters/security/osv/osv-directory-source';

const record = (id: string, ecosystem: string, name: string, fixed: string) => ({
  schema_version: '1.6.0',
  id,
  modified: '2026-10-01T00:00:00Z',
  summary: `${name} before ${fixed} is vulnerable`,
  affected: [{ package: { ecosystem, name }, ranges: [{ type: 'ECOSYSTEM', events: [{ introduced: '0' }, { fixed }] }] }],
});

/** An `all.zip` as osv.dev publishes it: one JSON file per advisory, plus what a bad export might hold. */
const exportFiles: Record<string, string> = {
  'GHSA-aaaa-0001.json': JSON.stringify(record('GHSA-aaaa-0001', 'npm', 'left-padder', '1.3.0')),
  'GHSA-aaaa-0002.json': JSON.stringify(record('GHSA-aaaa-0002', 'npm', 'deep-merger', '2.0.1')),
  'PYSEC-2026-1.json': JSON.stringify(record('PYSEC-2026-1', 'PyPI', 'Requests_Plus', '3.1')),
  'broken.json': '{"id": "GHSA-broken", ',
  'GHSA-no-package.json': JSON.stringify({ id: 'GHSA-no-package', modified: '2026-10-01T00:00:00Z', affected: [] }),
  'no-id.json': JSON.stringify({ modified: '2026-10-01T00:00:00Z' }),
};

describe('advisories import', () => {
  let work: string;
  const run = async (argv: string[], env: NodeJS.ProcessEnv = {}) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await advisoriesCommand(argv, { out: (t) => out.push(t), err: (t) => err.push(t) }, env);
    return { code, out: out.join('\n'), err: err.join('\n') };
  };

  beforeEach(async () => {
    work = await mkdtemp(join(tmpdir(), 'osv-import-'));
  });
  afterEach(async () => {
    await rm(work, { recursive: true, force: true });
  });

  it('loads an OSV all.zip where the dependency scan reads, counts per ecosystem, and skips invalid records with a count', async () => {
    const zip = join(work, 'all.zip');
    await writeFile(zip, zipSync(Object.fromEntries(Object.entries(exportFiles).map(([name, text]) => [name, strToU8(text)]))));
    const into = join(work, 'osv');

    const result = await run(['advisories', 'import', zip, '--into', into]);
    expect(result).toMatchObject({ code: 0, err: '' });
    expect(result.out).toContain(`Imported 3 advisories into ${into}`);
    expect(result.out).toContain('  PyPI: 1');
    expect(result.out).toContain('  npm: 2');
    expect(result.out).toContain('Skipped 3 invalid records:');
    expect(result.out).toContain('broken.json: not JSON');
    expect(result.out).toContain('GHSA-no-package: no affected package');

    const source = osvDirectorySource(into);
    expect(await source.ecosystemsCovered?.()).toEqual(new Set(['npm', 'PyPI']));
    const found = await source.query([
      { ecosystem: 'npm', name: 'left-padder', version: '1.2.9' },
      { ecosystem: 'npm', name: 'left-padder', version: '1.3.0' },
      { ecosystem: 'PyPI', name: 'requests-plus', version: '3.0' },
    ]);
    expect([...found.keys()].map((key) => key.split('\u0000').join(' '))).toEqual(['npm left-padder 1.2.9', 'PyPI requests-plus 3.0']);

    // Importing again replaces what was there: the same three files, no leftovers.
    expect((await run(['advisories', 'import', zip, '--into', into, '--json'])).code).toBe(0);
    expect((await readdir(into, { recursive: true })).filter((name) => name.endsWith('.json')).sort()).toEqual([
      'PyPI/PYSEC-2026-1.json',
      'npm/GHSA-aaaa-0001.json',
      'npm/GHSA-aaaa-0002.json',
    ]);
  });

  it('reads a folder of OSV JSON files, into $OSV_ADVISORY_DIR when no --into is given', async () => {
    const folder = join(work, 'export', 'nested');
    await mkdir(folder, { recursive: true });
    await writeFile(join(folder, 'GHSA-aaaa-0001.json'), exportFiles['GHSA-aaaa-0001.json'] as string);
    const into = join(work, 'advisories');
    const result = await run(['advisories', 'import', join(work, 'export'), '--json'], { OSV_ADVISORY_DIR: into });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.out)).toEqual({ into, imported: 1, ecosystems: { npm: 1 }, skipped: 0, skippedExamples: [] });
  });

  it('says clearly what is wrong with the command line or the source, without a stack trace', async () => {
    const notZip = join(work, 'all.zip');
    await writeFile(notZip, 'this is not a zip');
    const into = join(work, 'osv');
    expect(await run(['advisories', 'import', notZip, '--into', into])).toMatchObject({
      code: 2,
      err: expect.stringMatching(/^Cannot import .*all\.zip: not a readable zip archive/),
    });
    expect(await run(['advisories', 'import', join(work, 'missing.zip'), '--into', into])).toMatchObject({
      code: 2,
      err: expect.stringContaining('does not exist'),
    });
    expect(await run(['advisories', 'import'])).toMatchObject({ code: 2, err: expect.stringContaining('advisories import <OSV all.zip') });
    expect(await run(['advisories', 'import', notZip, '--bogus'])).toMatchObject({ code: 2, err: expect.stringContaining('--bogus') });
  });
});
