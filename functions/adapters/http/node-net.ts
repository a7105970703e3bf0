import type { BlockList as NodeBlockList } from 'node:net';

/**
 * `node:net`, taken on first use. An ESM import of a builtin builds the module's facade by reading
 * every export, and `net.BlockList` is a getter that loads Node's block-list internals: every
 * function that checks a URL loaded them while it started (about 12 KB on the young heap, enough to
 * tip a function into one more collection during init; docs/performance.md). Taken through
 * `process.getBuiltinModule`, which reads no export, they load when a check first builds a list.
 */
let net: typeof import('node:net') | undefined;
const loadNet = (): typeof import('node:net') => (net ??= process.getBuiltinModule('node:net'));

export const isIP = (input: string): number => loadNet().isIP(input);

export type BlockList = NodeBlockList;

export const newBlockList = (): BlockList => new (loadNet().BlockList)();
