/**
 * A minimal POSIX ustar (pax for long names) writer and reader for regular files: enough for
 * reproducible bundles that any `tar` extracts. Every entry has mode 0644, owner 0 and mtime 0.
 */

const block = 512;

export interface TarEntry {
  name: string;
  body: Buffer;
}

const writeString = (header: Buffer, offset: number, length: number, value: string): void => {
  Buffer.from(value, 'utf8').copy(header, offset, 0, length);
};

const writeOctal = (header: Buffer, offset: number, length: number, value: number): void => {
  writeString(header, offset, length, `${value.toString(8).padStart(length - 1, '0')}\0`);
};

const padding = (size: number): Buffer => Buffer.alloc((block - (size % block)) % block);

/** Splits a name into ustar's `prefix` (155 bytes) and `name` (100 bytes) at a slash, if it fits. */
const splitName = (name: string): { prefix: string; name: string } | null => {
  if (Buffer.byteLength(name) <= 100) return { prefix: '', name };
  for (let slash = name.indexOf('/'); slash !== -1; slash = name.indexOf('/', slash + 1)) {
    const prefix = name.slice(0, slash);
    const rest = name.slice(slash + 1);
    if (Buffer.byteLength(prefix) <= 155 && Buffer.byteLength(rest) <= 100 && rest !== '') return { prefix, name: rest };
  }
  return null;
};

const header = (name: { prefix: string; name: string }, size: number, type: '0' | 'x'): Buffer => {
  const bytes = Buffer.alloc(block);
  writeString(bytes, 0, 100, name.name);
  writeOctal(bytes, 100, 8, 0o644);
  writeOctal(bytes, 108, 8, 0);
  writeOctal(bytes, 116, 8, 0);
  writeOctal(bytes, 124, 12, size);
  writeOctal(bytes, 136, 12, 0);
  bytes.fill(' ', 148, 156);
  writeString(bytes, 156, 1, type);
  writeString(bytes, 257, 6, 'ustar\0');
  writeString(bytes, 263, 2, '00');
  writeString(bytes, 345, 155, name.prefix);
  let checksum = 0;
  for (const byte of bytes) checksum += byte;
  writeString(bytes, 148, 8, `${checksum.toString(8).padStart(6, '0')}\0 `);
  return bytes;
};

/** One pax record, `<length> <key>=<value>\n`, where the length counts its own digits. */
const paxRecord = (key: string, value: string): Buffer => {
  const rest = ` ${key}=${value}\n`;
  let length = Buffer.byteLength(rest);
  while (`${length}`.length + Buffer.byteLength(rest) !== length) length = `${length}`.length + Buffer.byteLength(rest);
  return Buffer.from(`${length}${rest}`, 'utf8');
};

const entryBlocks = ({ name, body }: TarEntry): Buffer[] => {
  const split = splitName(name);
  if (split) return [header(split, body.length, '0'), body, padding(body.length)];
  // Too long for ustar: a pax header carries the full name; the ustar name is only a fallback.
  const pax = paxRecord('path', name);
  const shortName = { prefix: '', name: name.slice(-90).replace(/^[^/]*\//, '') };
  return [
    header({ prefix: '', name: 'PaxHeaders/long-name' }, pax.length, 'x'),
    pax,
    padding(pax.length),
    header(shortName, body.length, '0'),
    body,
    padding(body.length),
  ];
};

export const writeTar = (entries: readonly TarEntry[]): Buffer => Buffer.concat([...entries.flatMap(entryBlocks), Buffer.alloc(2 * block)]);

const readString = (bytes: Buffer, offset: number, length: number): string => {
  const field = bytes.subarray(offset, offset + length);
  const end = field.indexOf(0);
  return field.subarray(0, end === -1 ? length : end).toString('utf8');
};

const parsePax = (body: Buffer): Map<string, string> => {
  const records = new Map<string, string>();
  let offset = 0;
  while (offset < body.length) {
    const space = body.indexOf(0x20, offset);
    const length = Number.parseInt(body.subarray(offset, space).toString('ascii'), 10);
    if (space === -1 || !Number.isFinite(length) || length <= 0) break;
    const record = body.subarray(space + 1, offset + length - 1).toString('utf8');
    const equals = record.indexOf('=');
    records.set(record.slice(0, equals), record.slice(equals + 1));
    offset += length;
  }
  return records;
};

/** The regular files of an uncompressed tar, by name. */
export const readTar = (tar: Buffer): Map<string, Buffer> => {
  const files = new Map<string, Buffer>();
  let offset = 0;
  let paxPath: string | undefined;
  while (offset + block <= tar.length) {
    const head = tar.subarray(offset, offset + block);
    if (head.every((byte) => byte === 0)) break;
    const size = Number.parseInt(readString(head, 124, 12).trim() || '0', 8);
    const type = readString(head, 156, 1);
    const body = tar.subarray(offset + block, offset + block + size);
    offset += block + size + ((block - (size % block)) % block);
    if (type === 'x') {
      paxPath = parsePax(body).get('path');
      continue;
    }
    if (type !== '0' && type !== '') {
      paxPath = undefined;
      continue;
    }
    const prefix = readString(head, 345, 155);
    const name = readString(head, 0, 100);
    files.set(paxPath ?? (prefix ? `${prefix}/${name}` : name), Buffer.from(body));
    paxPath = undefined;
  }
  return files;
};
