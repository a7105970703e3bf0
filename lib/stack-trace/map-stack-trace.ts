import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SourceMap, type SourceMapPayload } from 'node:module';

/**
 * A frame of a deployed function names a file of its bundle (`file:///var/task/index.mjs:1:48213`,
 * `/var/task/chunk-5VZPIZYW.mjs:1:907`, or the path Lambda gave the file); the map of that same file
 * turns it into the source file and line.
 */
const bundleFrame = /(?:file:\/\/)?(?:\/[^\s():]*\/)?([\w.-]+\.mjs):(\d+):(\d+)/g;

/** Where a map's source lives, relative to the project (`functions/http/pipeline.ts`). */
const sourcePath = (source: string, projectRoot: string): string => {
  const path = source.startsWith('file://') ? fileURLToPath(source) : source;
  return path.startsWith('/') ? relative(projectRoot, path) : path;
};

/**
 * `stack` with every position in the bundle replaced by its place in the sources (`at hj
 * (functions/adapters/dynamodb/project-repository.ts:41:7)`); a position no map covers is left as
 * it is. Relative `sources` are kept as the map has them (relative to the bundle's folder).
 */
export const mapStackTrace = (stack: string, maps: ReadonlyMap<string, SourceMapPayload>, projectRoot: string): string => {
  const sourceMaps = new Map([...maps].map(([file, map]) => [file, new SourceMap(map)]));
  return stack.replace(bundleFrame, (frame, file: string, line: string, column: string) => {
    const origin = sourceMaps.get(file)?.findOrigin(Number(line), Number(column));
    if (!origin || !('fileName' in origin)) return frame;
    return `${sourcePath(origin.fileName, projectRoot)}:${origin.lineNumber}:${origin.columnNumber}`;
  });
};

/**
 * The stack inside what was pasted: a JSON log line of the function (Powertools writes the error
 * as `error.stack`) or the stack text itself.
 */
export const stackOf = (pasted: string): string => {
  try {
    const line = JSON.parse(pasted) as { error?: { stack?: unknown }; stack?: unknown };
    const stack = line.error?.stack ?? line.stack;
    if (typeof stack === 'string') return stack;
  } catch {
    // Not a log line: the stack as text.
  }
  return pasted;
};
