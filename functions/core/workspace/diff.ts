import { formatPatch, structuredPatch } from 'diff';
import type { FileChange } from '../workflows/stage-data';

/** Lines of unchanged context around each hunk, as git shows by default. */
const contextLines = 3;

const filePatch = (path: string, before: string | null, after: string | null): string => {
  const isCreate = before === null;
  const isDelete = after === null;
  const patch = structuredPatch(
    isCreate ? '/dev/null' : `a/${path}`,
    isDelete ? '/dev/null' : `b/${path}`,
    before ?? '',
    after ?? '',
    undefined,
    undefined,
    { context: contextLines },
  );
  return formatPatch({ ...patch, isGit: true, isCreate, isDelete });
};

/**
 * A git-style unified diff (`diff --git a/… b/…`, /dev/null for created and deleted files) from
 * what the changed files held before (`originals`, null = absent) to the change set, in path order.
 * Files whose content does not change are left out.
 */
export const unifiedDiff = (originals: Readonly<Record<string, string | null>>, changes: readonly FileChange[]): string =>
  [...changes]
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
    .map(({ path, content }) => {
      const before = Object.hasOwn(originals, path) ? (originals[path] ?? null) : null;
      return before === content ? '' : filePatch(path, before, content);
    })
    .join('');
