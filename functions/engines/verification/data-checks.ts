import { basename } from 'node:path';
import ts from 'typescript';
import { lineAt, outcome, skipped, type CheckResult } from './check-result';

/** JSON that its tools read with comments and trailing commas allowed. */
export const isJsonWithComments = (path: string): boolean =>
  path.endsWith('.jsonc') ||
  /^[jt]sconfig(\..+)?\.json$/.test(basename(path)) ||
  /(^|\/)\.vscode\/[^/]+\.json$/.test(path) ||
  basename(path) === 'devcontainer.json';

/** TypeScript's lenient JSON parser: where its first error is, if it finds one. */
const lenientJsonError = (path: string, text: string): ts.Diagnostic | undefined => ts.parseConfigFileTextToJson(path, text).error;

/** V8 says where, in one of two forms depending on its version, or not at all. */
const jsonErrorLine = (path: string, text: string, message: string): number | null => {
  const lineColumn = /\(line (\d+) column \d+\)/.exec(message);
  if (lineColumn) return Number(lineColumn[1]);
  const position = /at position (\d+)/.exec(message);
  if (position) return lineAt(text, Number(position[1]));
  const start = lenientJsonError(path, text)?.start;
  return start === undefined ? null : lineAt(text, start);
};

export const checkJson = (path: string, text: string): CheckResult => {
  if (isJsonWithComments(path)) {
    const error = lenientJsonError(path, text);
    if (!error) return outcome('json', []);
    return outcome('json', [
      {
        line: error.start === undefined ? null : lineAt(text, error.start),
        message: ts.flattenDiagnosticMessageText(error.messageText, ' '),
      },
    ]);
  }
  try {
    JSON.parse(text);
    return outcome('json', []);
  } catch (error) {
    const message = (error as Error).message;
    return outcome('json', [{ line: jsonErrorLine(path, text, message), message: message.replace(/\s*\n\s*/g, ' ') }]);
  }
};

type YamlModule = typeof import('yaml');
let yamlModule: Promise<YamlModule | undefined> | undefined;

/**
 * `yaml` is not a dependency of the service: it is used when node_modules has it (it comes with
 * dev tools) or a bundle carried it; without it YAML files are skipped.
 */
const loadYaml = (): Promise<YamlModule | undefined> =>
  (yamlModule ??= import('yaml').then(
    (module) => ('parseAllDocuments' in module ? module : (module as unknown as { default: YamlModule }).default),
    () => undefined,
  ));

/** Every document of the stream; errors only: unknown tags such as CloudFormation's `!Ref` are warnings. */
export const checkYaml = async (text: string): Promise<CheckResult> => {
  const yaml = await loadYaml();
  if (!yaml) return skipped('yaml', 'no YAML parser in this runtime');
  const problems = [...yaml.parseAllDocuments(text)].flatMap((document) =>
    document.errors.map((error) => ({
      line: error.linePos?.[0].line ?? null,
      message: error.message.split('\n')[0]?.replace(/:$/, '') ?? error.code,
    })),
  );
  return outcome('yaml', problems);
};
