import { responseOf } from '@project-automation-service/sdk';
import { type CommandContext, optionalString } from './command';

/** A resource's entity tag as the last line of its human output, to pass back as `--if-match`. */
export const etagLine = (result: object): string => {
  const etag = responseOf(result)?.etag;
  return etag ? `\nETag: ${etag}` : '';
};

/**
 * What `--json` prints of a resource that has an entity tag: the resource with its `etag`, the value
 * `--if-match` takes, so a script needs no second read (and no header) to change it safely.
 */
export const withEtag = <T extends object>(read: { data: T }): T & { etag?: string } => {
  const etag = responseOf(read)?.etag;
  return etag ? { ...read.data, etag } : read.data;
};

export const ifMatchOption = {
  'if-match': {
    type: 'string',
    description: 'the ETag shown by get or update: only while it is still current (else 412, nothing changed)',
  },
} as const;

/** `If-Match` when --if-match is given. */
export const conditionOf = (context: CommandContext): { header?: { 'If-Match': string } } => {
  const etag = optionalString(context, 'if-match');
  return etag ? { header: { 'If-Match': etag } } : {};
};
