import { type LockedPackage, linesOf, uniquePackages } from './types';

/**
 * go.sum: one package per module version whose source was downloaded (`module v1.2.3 h1:…`). A
 * version listed only as `module v1.2.3/go.mod h1:…` is not: the go command read its go.mod for
 * version selection but builds none of its code. Versions keep their leading `v` and any
 * `+incompatible`.
 */
export const readGoSum = (text: string, manifest: string): LockedPackage[] => {
  const found: LockedPackage[] = [];
  linesOf(text).forEach((line, index) => {
    const match = /^(\S+)\s+(v\S+?)\s+h\d+:\S+\s*$/.exec(line.trim());
    if (!match?.[1] || !match[2] || match[2].endsWith('/go.mod')) return;
    found.push({ ecosystem: 'Go', name: match[1], version: match[2], manifest, line: index + 1 });
  });
  return uniquePackages(found);
};
