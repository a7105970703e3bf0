/**
 * `npm run cli -- advisories import <zip|folder>`: loads OSV's published advisories into the folder
 * the local runtime's dependency scan reads, for a machine that cannot reach api.osv.dev.
 * Registered in bin/cli.ts.
 */
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { importOsvAdvisories, OsvImportError } from '../../lib/cli/osv-import';
import { dataDirFromEnvironment, locateRuntime } from '../../lib/local/runtime-file';

export const advisoriesUsage = `  advisories import <OSV all.zip or folder of OSV JSON> [--into <folder>]
                   default folder: $OSV_ADVISORY_DIR, else <DATA_DIR of the local runtime>/osv`;

export interface AdvisoriesIo {
  out(text: string): void;
  err(text: string): void;
}

export const isAdvisoriesCommand = (argv: string[]): boolean => argv[0] === 'advisories';

/** Where the local runtime reads advisories: as bin/start.ts sets OSV_ADVISORY_DIR. */
const advisoryFolder = async (env: NodeJS.ProcessEnv): Promise<string> => {
  const configured = env.OSV_ADVISORY_DIR?.trim();
  if (configured) return resolve(configured);
  const lookup = await locateRuntime(env);
  return join(lookup.kind === 'found' ? lookup.dataDir : dataDirFromEnvironment(), 'osv');
};

/** Runs the command; answers the exit status (2 for a usage error or a source that cannot be read). */
export const advisoriesCommand = async (argv: string[], io: AdvisoriesIo, env: NodeJS.ProcessEnv = process.env): Promise<number> => {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv.slice(1),
      allowPositionals: true,
      options: { into: { type: 'string' }, json: { type: 'boolean', default: false } },
    });
  } catch (error) {
    io.err(`${(error as Error).message}\n\n${advisoriesUsage}`);
    return 2;
  }
  const { values, positionals } = parsed;
  const [command, source, extra] = positionals;
  if (command !== 'import' || !source || extra !== undefined) {
    io.err(`Usage:\n${advisoriesUsage}`);
    return 2;
  }
  const into = values.into ? resolve(values.into) : await advisoryFolder(env);
  try {
    const report = await importOsvAdvisories(resolve(source), into);
    if (values.json) {
      io.out(JSON.stringify(report, null, 2));
    } else {
      const counts = Object.entries(report.ecosystems)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([ecosystem, count]) => `  ${ecosystem}: ${count}`);
      io.out(
        [`Imported ${report.imported} ${report.imported === 1 ? 'advisory' : 'advisories'} into ${report.into}`, ...counts].join('\n'),
      );
      if (report.skipped > 0)
        io.out(
          [
            `Skipped ${report.skipped} invalid ${report.skipped === 1 ? 'record' : 'records'}:`,
            ...report.skippedExamples.map((reason) => `  ${reason}`),
          ].join('\n'),
        );
    }
    return report.imported > 0 ? 0 : 1;
  } catch (error) {
    if (error instanceof OsvImportError) {
      io.err(`Cannot import ${source}: ${error.message}`);
      return 2;
    }
    throw error;
  }
};
