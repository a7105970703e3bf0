import { open } from 'node:fs/promises';

/** Git's own test: a NUL byte among the first 8000 bytes makes a file binary. */
const binarySniffBytes = 8000;

export const looksBinary = (bytes: Uint8Array): boolean => bytes.subarray(0, binarySniffBytes).includes(0);

/** Decodes UTF-8, dropping a character cut in half at the end by a size cap. */
export const decodeUtf8 = (bytes: Uint8Array, truncated: boolean): string => {
  const text = new TextDecoder('utf-8', { fatal: false, ignoreBOM: false }).decode(bytes);
  return truncated ? text.replace(/\uFFFD+$/u, '') : text;
};

/** The first `maxBytes` of a file as text, or null when it looks binary. Reads no more than needed. */
export const readTextPrefix = async (path: string, maxBytes: number): Promise<{ text: string; truncated: boolean } | null> => {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(maxBytes + 1);
    let length = 0;
    while (length < buffer.length) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    const truncated = length > maxBytes;
    const bytes = buffer.subarray(0, Math.min(length, maxBytes));
    if (looksBinary(bytes)) return null;
    return { text: decodeUtf8(bytes, truncated), truncated };
  } finally {
    await handle.close();
  }
};
