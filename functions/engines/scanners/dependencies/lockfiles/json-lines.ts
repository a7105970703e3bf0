/**
 * JSON.parse that also remembers on which line each object key was written, so that findings in
 * JSON lockfiles can point at the package's entry. Same results as JSON.parse for valid input
 * (`__proto__` stays an own property); throws SyntaxError on invalid input.
 */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export interface JsonWithLines {
  value: Json;
  /** The 1-based line of `key` in `object` (an object of `value`), or null. */
  lineOf(object: object, key: string): number | null;
}

const maxDepth = 1000;

export const parseJsonWithLines = (text: string): JsonWithLines => {
  const lines = new WeakMap<object, Map<string, number>>();
  let index = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let line = 1;

  const fail = (what: string): never => {
    throw new SyntaxError(`${what} at line ${line}`);
  };

  const skipWhitespace = (): void => {
    for (;;) {
      const code = text.charCodeAt(index);
      if (code === 0x0a) line += 1;
      else if (code !== 0x20 && code !== 0x09 && code !== 0x0d) return;
      index += 1;
    }
  };

  const stringToken = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;
  const numberToken = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

  const readString = (): string => {
    stringToken.lastIndex = index;
    const match = stringToken.exec(text);
    if (!match) return fail('Invalid string');
    index = stringToken.lastIndex;
    const raw = match[0];
    return raw.includes('\\') ? (JSON.parse(raw) as string) : raw.slice(1, -1);
  };

  const readValue = (depth: number): Json => {
    if (depth > maxDepth) fail('Nesting too deep');
    skipWhitespace();
    const char = text[index];
    if (char === '{') {
      index += 1;
      const object: { [key: string]: Json } = {};
      const keyLines = new Map<string, number>();
      lines.set(object, keyLines);
      skipWhitespace();
      if (text[index] === '}') {
        index += 1;
        return object;
      }
      for (;;) {
        skipWhitespace();
        if (text[index] !== '"') fail('Expected a key');
        const keyLine = line;
        const key = readString();
        skipWhitespace();
        if (text[index] !== ':') fail('Expected ":"');
        index += 1;
        const value = readValue(depth + 1);
        Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
        keyLines.set(key, keyLine);
        skipWhitespace();
        if (text[index] === ',') {
          index += 1;
          continue;
        }
        if (text[index] === '}') {
          index += 1;
          return object;
        }
        fail('Expected "," or "}"');
      }
    }
    if (char === '[') {
      index += 1;
      const array: Json[] = [];
      skipWhitespace();
      if (text[index] === ']') {
        index += 1;
        return array;
      }
      for (;;) {
        array.push(readValue(depth + 1));
        skipWhitespace();
        if (text[index] === ',') {
          index += 1;
          continue;
        }
        if (text[index] === ']') {
          index += 1;
          return array;
        }
        fail('Expected "," or "]"');
      }
    }
    if (char === '"') return readString();
    if (text.startsWith('true', index)) {
      index += 4;
      return true;
    }
    if (text.startsWith('false', index)) {
      index += 5;
      return false;
    }
    if (text.startsWith('null', index)) {
      index += 4;
      return null;
    }
    numberToken.lastIndex = index;
    const number = numberToken.exec(text);
    if (!number) return fail('Unexpected token');
    index = numberToken.lastIndex;
    return Number(number[0]);
  };

  const value = readValue(0);
  skipWhitespace();
  if (index < text.length) fail('Unexpected data after the JSON value');
  return { value, lineOf: (object, key) => lines.get(object)?.get(key) ?? null };
};

export const isJsonObject = (value: unknown): value is { [key: string]: Json } =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
