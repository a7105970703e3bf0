import { createHash } from 'node:crypto';

/** `dashboard.<first 12 hex of the SHA-256>.<extension>`: a new version is a new name, so it may be cached for a year. */
export const contentName = (text: string, extension: 'css' | 'js'): string =>
  `dashboard.${createHash('sha256').update(text).digest('hex').slice(0, 12)}.${extension}`;
