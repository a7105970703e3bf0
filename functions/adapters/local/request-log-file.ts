import { appendFileSync, mkdirSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { dirname } from 'node:path';
import { type ApiRequestRecord, matchesRequestQuery, type RequestLogReader } from '../../core/requests/api-requests';

/**
 * The local runtime's request log: one JSON line per API request, in the file `LOCAL_REQUEST_LOG_FILE`
 * names (under the data folder), the local stand-in for the API functions' CloudWatch log group.
 * Appended synchronously, as a Lambda writes its log line to stdout: the line is there once the
 * answer is.
 */
export const appendRequestLine = (file: string, record: ApiRequestRecord): void => {
  try {
    appendFileSync(file, `${JSON.stringify(record)}\n`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    mkdirSync(dirname(file), { recursive: true });
    appendFileSync(file, `${JSON.stringify(record)}\n`);
  }
};

/** How much of the file's end is read: the recent requests, however long the file has grown. */
const tailBytes = 4 * 1024 * 1024;

const readTail = async (file: string): Promise<string> => {
  let handle;
  try {
    handle = await open(file, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return '';
    throw error;
  }
  try {
    const { size } = await handle.stat();
    const start = Math.max(0, size - tailBytes);
    const buffer = Buffer.alloc(size - start);
    await handle.read(buffer, 0, buffer.length, start);
    const text = buffer.toString('utf8');
    // A read that starts mid-file starts mid-line: that first piece is dropped.
    return start > 0 ? text.slice(text.indexOf('\n') + 1) : text;
  } finally {
    await handle.close();
  }
};

const parseLine = (line: string): ApiRequestRecord | undefined => {
  if (!line) return undefined;
  try {
    const record = JSON.parse(line) as ApiRequestRecord;
    return typeof record.account_id === 'string' && typeof record.status === 'number' ? record : undefined;
  } catch {
    return undefined;
  }
};

/** Reads the local request log back: the tenant's lines, filtered, newest first. */
export const fileRequestLogReader = (file: string): RequestLogReader => ({
  async recent(tenant, query) {
    const lines = (await readTail(file)).split('\n');
    const found: ApiRequestRecord[] = [];
    for (let i = lines.length - 1; i >= 0 && found.length < query.limit; i--) {
      const record = parseLine(lines[i] as string);
      if (record && matchesRequestQuery(record, tenant, query)) found.push(record);
    }
    return found;
  },
});
