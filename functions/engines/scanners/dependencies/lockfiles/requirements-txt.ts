import { type LockedPackage, linesOf } from './types';

export const unpinnedReason = 'unpinned requirement';
export const directReferenceReason = 'direct URL, path, VCS or editable requirement';

export interface UnpinnedRequirement {
  line: number;
  requirement: string;
  reason: typeof unpinnedReason | typeof directReferenceReason;
}

export interface RequirementsRead {
  packages: LockedPackage[];
  /** Requirements that name no exact version: not covered by the scan. */
  unpinned: UnpinnedRequirement[];
}

/** Options pip accepts on their own line; none of them names a package to install. */
const ignoredOption =
  /^(?:-r|-c|-i|-f|--requirement|--constraint|--index-url|--extra-index-url|--find-links|--no-index|--trusted-host|--pre|--prefer-binary|--only-binary|--no-binary|--require-hashes|--use-feature|--config-settings)\b/;
const pinned = /^([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)\s*(?:\[[^\]]*\])?\s*===?\s*([A-Za-z0-9][A-Za-z0-9.+!_-]*)\s*(?:;.*)?$/;
const named = /^[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?\s*(?:\[[^\]]*\])?\s*(?:[<>=!~;(]|$)/;

/** Logical lines: comments removed, `\`-continuations joined, each with the line it starts on. */
const logicalLines = (text: string): Array<{ line: number; text: string }> => {
  const result: Array<{ line: number; text: string }> = [];
  const lines = linesOf(text);
  let start = 0;
  let joined = '';
  for (let index = 0; index < lines.length; index += 1) {
    const withoutComment = (lines[index] ?? '').replace(/(?:^|\s)#.*$/, '');
    const continued = /\\\s*$/.test(withoutComment);
    if (joined === '') start = index + 1;
    joined = `${joined} ${withoutComment.replace(/\\\s*$/, '')}`;
    if (!continued || index === lines.length - 1) {
      if (joined.trim() !== '') result.push({ line: start, text: joined.trim() });
      joined = '';
    }
  }
  return result;
};

/**
 * requirements.txt (pip's format). Only exact pins (`name==1.2.3`, `name===1.2.3`, with extras,
 * environment markers and `--hash` options) name an installed version; every other requirement
 * (ranges, bare names, wildcards, URLs, paths, `-e`) is listed as unpinned. `-r`/`-c` includes are
 * not followed (included files are found and read on their own when they are named requirements*.txt).
 */
export const parseRequirementsTxt = (text: string, manifest: string): RequirementsRead => {
  const packages: LockedPackage[] = [];
  const unpinned: UnpinnedRequirement[] = [];
  for (const { line, text: entry } of logicalLines(text)) {
    const requirement = entry.replace(/\s--hash[=\s]\S+/g, '').trim();
    if (ignoredOption.test(requirement)) continue;
    if (/^(?:-e|--editable)\b/.test(requirement) || !named.test(requirement) || /^[^;]*\s@\s/.test(requirement)) {
      unpinned.push({ line, requirement, reason: directReferenceReason });
      continue;
    }
    const match = pinned.exec(requirement);
    if (match?.[1] && match[2] && !match[2].includes('*')) {
      packages.push({ ecosystem: 'PyPI', name: match[1], version: match[2], manifest, line });
    } else {
      unpinned.push({ line, requirement, reason: unpinnedReason });
    }
  }
  return { packages, unpinned };
};

export const readRequirementsTxt = (text: string, manifest: string): LockedPackage[] => parseRequirementsTxt(text, manifest).packages;
