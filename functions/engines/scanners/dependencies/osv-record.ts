import type { OsvAffected, OsvEvent, OsvRange, OsvSeverity, OsvVulnerability } from './advisories';

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const texts = (value: unknown): string[] | undefined =>
  Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : undefined;
const records = (value: unknown): Array<Record<string, unknown>> => (Array.isArray(value) ? value.filter(isRecord) : []);

const severities = (value: unknown): OsvSeverity[] | undefined => {
  if (!Array.isArray(value)) return undefined;
  return records(value).flatMap((rating) => {
    const type = text(rating.type);
    const score = text(rating.score);
    return type && score ? [{ type, score }] : [];
  });
};

const eventOf = (event: Record<string, unknown>): OsvEvent | null => {
  for (const kind of ['introduced', 'fixed', 'last_affected', 'limit'] as const) {
    const version = text(event[kind]);
    if (version !== undefined) return { [kind]: version };
  }
  return null;
};

const rangeOf = (range: Record<string, unknown>): OsvRange | null => {
  const type = text(range.type);
  if (!type) return null;
  return {
    type,
    events: records(range.events)
      .map(eventOf)
      .filter((event) => event !== null),
  };
};

const affectedOf = (entry: Record<string, unknown>): OsvAffected => {
  const affected: OsvAffected = {};
  if (isRecord(entry.package)) {
    const ecosystem = text(entry.package.ecosystem);
    const name = text(entry.package.name);
    if (ecosystem !== undefined && name !== undefined) {
      affected.package = { ecosystem, name };
      const purl = text(entry.package.purl);
      if (purl) affected.package.purl = purl;
    }
  }
  if (Array.isArray(entry.ranges))
    affected.ranges = records(entry.ranges)
      .map(rangeOf)
      .filter((range) => range !== null);
  const versions = texts(entry.versions);
  if (versions) affected.versions = versions;
  const severity = severities(entry.severity);
  if (severity) affected.severity = severity;
  if (isRecord(entry.ecosystem_specific)) affected.ecosystem_specific = entry.ecosystem_specific;
  if (isRecord(entry.database_specific)) affected.database_specific = entry.database_specific;
  return affected;
};

/**
 * An OSV record read from untrusted JSON, reduced to the fields the scanner uses with the types
 * it expects (wrongly typed fields dropped); null when it has no `id`.
 */
export const osvRecordOf = (value: unknown): OsvVulnerability | null => {
  if (!isRecord(value)) return null;
  const id = text(value.id);
  if (!id) return null;
  const vulnerability: OsvVulnerability = { id };
  for (const field of ['modified', 'published', 'withdrawn', 'summary', 'details'] as const) {
    const fieldValue = text(value[field]);
    if (fieldValue !== undefined) vulnerability[field] = fieldValue;
  }
  const aliases = texts(value.aliases);
  if (aliases) vulnerability.aliases = aliases;
  const severity = severities(value.severity);
  if (severity) vulnerability.severity = severity;
  if (Array.isArray(value.affected)) vulnerability.affected = records(value.affected).map(affectedOf);
  if (Array.isArray(value.references)) {
    vulnerability.references = records(value.references).flatMap((reference) => {
      const url = text(reference.url);
      const type = text(reference.type);
      return url ? [type ? { type, url } : { url }] : [];
    });
  }
  if (isRecord(value.database_specific)) vulnerability.database_specific = value.database_specific;
  return vulnerability;
};
