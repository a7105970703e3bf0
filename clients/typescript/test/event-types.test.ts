/**
 * The event types at the type level: the fixture is a receiver's code, its `@ts-expect-error`s the
 * mistakes the types must refuse (a null where the service sends one is allowed, a typo or a value
 * outside an enum is not). The type checker runs on it with the SDK's own compiler settings.
 */
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const sdkFolder = fileURLToPath(new URL('..', import.meta.url));
const fixture = fileURLToPath(new URL('./types/event-data.fixture.ts', import.meta.url));

const diagnosticsOf = (file: string): string[] => {
  const config = ts.getParsedCommandLineOfConfigFile(
    `${sdkFolder}/tsconfig.json`,
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
  );
  if (!config) throw new Error('the SDK has no tsconfig.json');
  const program = ts.createProgram([file], { ...config.options, noEmit: true });
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => {
    const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
    if (!diagnostic.file) return message;
    const { line, character } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start ?? 0);
    return `${diagnostic.file.fileName}:${line + 1}:${character + 1} ${message}`;
  });
};

describe("the SDK's event types", () => {
  it("give each event's data its schema: nulls, enums, required fields and no unknown field, as the service sends them", () => {
    expect(diagnosticsOf(fixture)).toEqual([]);
  });
});
