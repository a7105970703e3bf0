/**
 * A light, regex-based reading of what a source file exports, for the local provider's smoke tests.
 * It is not a parser: comments and the insides of strings, template literals and regular
 * expressions are blanked first, then patterns pick out top-level declarations. It errs towards
 * "value" when unsure, since a test that only checks an export exists cannot wrongly fail.
 *
 * - JavaScript / TypeScript (ESM): `export function|async function|function*|class|abstract class`,
 *   `export const|let|var name = …` (a function when the initializer is a function expression or an
 *   arrow, a class for a class expression), `export enum`, `export default …`, `export { a, b as c }`
 *   (looked up among the file's own declarations), `export * as ns from`. Type-only forms
 *   (`export type|interface|declare`, `export const enum`, `export { type X }`) have no runtime value
 *   and are left out.
 * - CommonJS: `module.exports = { a, b: …, c() {} }`, `module.exports = <expression>` (the module
 *   itself, named `module.exports`), `exports.name = …` / `module.exports.name = …`.
 * - Python: top-level `def name(` / `async def name(` / `class Name`, without names starting with `_`.
 */

export type ExportKind = 'function' | 'class' | 'value';

export interface FoundExport {
  /** The exported name; `default` for an ES default export, `module.exports` for a CommonJS module that is itself the export. */
  name: string;
  kind: ExportKind;
}

/** The name `module.exports = <expression>` is reported under: the module object is the export. */
export const wholeModule = 'module.exports';

const identifier = '[A-Za-z_$][\\w$]*';
const identifierOnly = new RegExp(`^${identifier}$`);

const byName = (found: Map<string, ExportKind>): FoundExport[] =>
  [...found].map(([name, kind]) => ({ name, kind })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));

// ---- JavaScript / TypeScript ----

const regexKeywords = new Set([
  'return',
  'typeof',
  'case',
  'do',
  'else',
  'in',
  'of',
  'new',
  'delete',
  'void',
  'throw',
  'yield',
  'await',
  'instanceof',
]);

/** The source with comments and the insides of string, template and regex literals replaced by spaces (newlines and quotes kept). */
export const maskJs = (source: string): string => {
  const out = source.split('');
  const length = source.length;
  const blank = (from: number, to: number): void => {
    for (let k = from; k < to && k < length; k += 1) if (out[k] !== '\n') out[k] = ' ';
  };
  let lastChar = '';
  let lastWord = '';

  /** From just after an opening backtick to just after its closing one; `${…}` expressions are skipped whole. */
  const skipTemplate = (start: number): number => {
    let i = start;
    while (i < length) {
      const c = source[i];
      if (c === '\\') i += 2;
      else if (c === '`') return i + 1;
      else if (c === '$' && source[i + 1] === '{') {
        i += 2;
        let depth = 1;
        while (i < length && depth > 0) {
          const d = source[i];
          if (d === '`') i = skipTemplate(i + 1);
          else if (d === '"' || d === "'") i = skipQuoted(i + 1, d);
          else {
            if (d === '{') depth += 1;
            else if (d === '}') depth -= 1;
            i += 1;
          }
        }
      } else i += 1;
    }
    return length;
  };
  /** From just after an opening quote to just after its closing one (or the end of the line). */
  const skipQuoted = (start: number, quote: string): number => {
    let i = start;
    while (i < length) {
      const c = source[i];
      if (c === '\\') i += 2;
      else if (c === quote) return i + 1;
      else if (c === '\n') return i;
      else i += 1;
    }
    return length;
  };
  const skipRegex = (start: number): number => {
    let i = start;
    let inClass = false;
    while (i < length) {
      const c = source[i];
      if (c === '\\') i += 2;
      else if (c === '\n') return i;
      else if (inClass) {
        if (c === ']') inClass = false;
        i += 1;
      } else if (c === '[') {
        inClass = true;
        i += 1;
      } else if (c === '/') {
        i += 1;
        while (i < length && /[a-z]/i.test(source[i] ?? '')) i += 1;
        return i;
      } else i += 1;
    }
    return length;
  };

  let i = 0;
  while (i < length) {
    const c = source[i] ?? '';
    const next = source[i + 1];
    if (c === '/' && next === '/') {
      const end = source.indexOf('\n', i);
      const stop = end < 0 ? length : end;
      blank(i, stop);
      i = stop;
    } else if (c === '/' && next === '*') {
      const end = source.indexOf('*/', i + 2);
      const stop = end < 0 ? length : end + 2;
      blank(i, stop);
      i = stop;
    } else if (c === '"' || c === "'") {
      const stop = skipQuoted(i + 1, c);
      blank(i + 1, source[stop - 1] === c ? stop - 1 : stop);
      i = stop;
      lastChar = 'a';
      lastWord = '';
    } else if (c === '`') {
      const stop = skipTemplate(i + 1);
      blank(i + 1, source[stop - 1] === '`' ? stop - 1 : stop);
      i = stop;
      lastChar = 'a';
      lastWord = '';
    } else if (c === '/' && (lastChar === '' || /[(,=:[!&|?{};+\-*%<>~^]/.test(lastChar) || regexKeywords.has(lastWord))) {
      const stop = skipRegex(i + 1);
      blank(i + 1, stop);
      i = stop;
      lastChar = 'a';
      lastWord = '';
    } else if (/[\w$]/.test(c)) {
      let end = i + 1;
      while (end < length && /[\w$]/.test(source[end] ?? '')) end += 1;
      lastWord = source.slice(i, end);
      lastChar = 'a';
      i = end;
    } else {
      if (!/\s/.test(c)) {
        lastChar = c;
        lastWord = '';
      }
      i += 1;
    }
  }
  return out.join('');
};

/** Brace depth at each offset of masked code. */
const braceDepths = (code: string): Int32Array => {
  const depths = new Int32Array(code.length + 1);
  let depth = 0;
  for (let i = 0; i < code.length; i += 1) {
    depths[i] = depth;
    if (code[i] === '{') depth += 1;
    else if (code[i] === '}') depth = Math.max(0, depth - 1);
  }
  depths[code.length] = depth;
  return depths;
};

/** The offset just past the bracket that closes the one at `open`, or -1. */
const closingOf = (code: string, open: number): number => {
  let depth = 0;
  for (let i = open; i < code.length; i += 1) {
    const c = code[i];
    if (c === '(' || c === '[' || c === '{') depth += 1;
    else if (c === ')' || c === ']' || c === '}') {
      depth -= 1;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
};

/** What an initializer (masked code from its first character) evaluates to, as far as a glance tells. */
const classifyExpression = (code: string, locals: Map<string, ExportKind | 'type'>): ExportKind => {
  const text = code.trimStart();
  if (/^(?:async\s+)?function\b/.test(text)) return 'function';
  if (/^class\b/.test(text)) return 'class';
  if (new RegExp(`^(?:async\\s+)?${identifier}\\s*=>`).test(text)) return 'function';
  const paren = /^(?:async\s*)?(?:<[^>()]*>\s*)?\(/.exec(text);
  if (paren) {
    const close = closingOf(text, paren[0].length - 1);
    if (close > 0 && /^\s*(?::[^;{}=]*?)?=>/.test(text.slice(close))) return 'function';
    return 'value';
  }
  const alone = new RegExp(`^(${identifier})\\s*(?:;|,|\\n|$)`).exec(text);
  if (alone) {
    const local = locals.get(alone[1] ?? '');
    if (local === 'function' || local === 'class') return local;
  }
  return 'value';
};

/** The initializer after `name` in `const name: Type = …`, or null when there is none. */
const initializerAfter = (code: string, from: number): string | null => {
  let i = from;
  while (i < code.length && /\s/.test(code[i] ?? '')) i += 1;
  if (code[i] === '=' && code[i + 1] !== '=' && code[i + 1] !== '>') return code.slice(i + 1, i + 2_000);
  if (code[i] !== ':') return null;
  // A type annotation: the first `=` outside brackets that is not part of `=>`, `==` or `<=`/`>=`.
  let depth = 0;
  for (i += 1; i < code.length && i < from + 2_000; i += 1) {
    const c = code[i];
    if (c === '(' || c === '[' || c === '{' || c === '<') depth += 1;
    else if (c === ')' || c === ']' || c === '}' || (c === '>' && code[i - 1] !== '=')) depth = Math.max(0, depth - 1);
    else if (c === ';' && depth === 0) return null;
    else if (c === '=' && depth === 0 && code[i + 1] !== '>' && code[i + 1] !== '=' && code[i - 1] !== '=' && code[i - 1] !== '!') {
      return code.slice(i + 1, i + 2_000);
    }
  }
  return null;
};

/** The file's own top-level declarations, exported or not, by name (types as 'type'). */
const localDeclarations = (code: string, depths: Int32Array): Map<string, ExportKind | 'type'> => {
  const locals = new Map<string, ExportKind | 'type'>();
  const add = (name: string | undefined, kind: ExportKind | 'type'): void => {
    if (name !== undefined && !locals.has(name)) locals.set(name, kind);
  };
  const at0 = (match: RegExpExecArray): boolean => depths[match.index] === 0;
  for (const match of code.matchAll(new RegExp(`(?<![\\w$.])(?:async\\s+)?function\\s*\\*?\\s*(${identifier})`, 'g')))
    if (at0(match)) add(match[1], 'function');
  for (const match of code.matchAll(new RegExp(`(?<![\\w$.])class\\s+(${identifier})`, 'g'))) if (at0(match)) add(match[1], 'class');
  for (const match of code.matchAll(new RegExp(`(?<![\\w$.])(?:interface|type)\\s+(${identifier})\\b`, 'g')))
    if (at0(match)) add(match[1], 'type');
  for (const match of code.matchAll(new RegExp(`(?<![\\w$.])enum\\s+(${identifier})`, 'g'))) if (at0(match)) add(match[1], 'value');
  for (const match of code.matchAll(new RegExp(`(?<![\\w$.])(?:const|let|var)\\s+(${identifier})`, 'g'))) {
    if (!at0(match) || match[1] === 'enum') continue;
    const init = initializerAfter(code, match.index + match[0].length);
    add(match[1], init === null ? 'value' : classifyExpression(init, new Map()));
  }
  return locals;
};

const esmExports = (code: string, depths: Int32Array, locals: Map<string, ExportKind | 'type'>, found: Map<string, ExportKind>): void => {
  const set = (name: string | undefined, kind: ExportKind): void => {
    if (name !== undefined && !found.has(name)) found.set(name, kind);
  };
  const pattern = /(?<![\w$.])export\b(?!\s*=)/g;
  for (const match of code.matchAll(pattern)) {
    if (depths[match.index] !== 0) continue;
    const rest = code.slice(match.index + match[0].length, match.index + match[0].length + 2_000);
    if (/^\s+(?:declare|type|interface|namespace|module|import|const\s+enum)\b/.test(rest)) continue;
    if (/^\s+type\s*\{/.test(rest)) continue;
    let m: RegExpExecArray | null;
    if ((m = /^\s+default\s+/.exec(rest))) {
      const expression = rest.slice(m[0].length);
      if (/^(?:abstract\s+)?class\b/.test(expression)) set('default', 'class');
      else if (/^interface\b/.test(expression)) continue;
      else set('default', classifyExpression(expression, locals));
    } else if ((m = new RegExp(`^\\s+(?:async\\s+)?function\\s*\\*?\\s*(${identifier})`).exec(rest))) set(m[1], 'function');
    else if ((m = new RegExp(`^\\s+(?:abstract\\s+)?class\\s+(${identifier})`).exec(rest))) set(m[1], 'class');
    else if ((m = new RegExp(`^\\s+enum\\s+(${identifier})`).exec(rest))) set(m[1], 'value');
    else if ((m = new RegExp(`^\\s+(?:const|let|var)\\s+(${identifier})`).exec(rest))) {
      const init = initializerAfter(rest, m[0].length);
      set(m[1], init === null ? 'value' : classifyExpression(init, locals));
    } else if ((m = /^\s*\{([^}]*)\}/.exec(rest))) {
      const reexport = /^\s*from\b/.test(rest.slice(m[0].length));
      for (const entry of (m[1] ?? '').split(',')) {
        const spec = entry.trim();
        if (spec === '' || /^type\s/.test(spec)) continue;
        const parts = new RegExp(`^(${identifier})(?:\\s+as\\s+(${identifier}))?$`).exec(spec);
        if (!parts) continue;
        const local = parts[1] ?? '';
        const name = parts[2] ?? local;
        const kind = reexport ? undefined : locals.get(local);
        if (kind === 'type') continue;
        set(name, kind ?? 'value');
      }
    } else if ((m = new RegExp(`^\\s*\\*\\s*as\\s+(${identifier})\\s+from\\b`).exec(rest))) set(m[1], 'value');
  }
};

/** The top-level keys of an object literal (masked code, `{` at `open`) with what each holds. */
const objectLiteralEntries = (code: string, open: number, locals: Map<string, ExportKind | 'type'>): FoundExport[] => {
  const close = closingOf(code, open);
  if (close < 0) return [];
  const body = code.slice(open + 1, close - 1);
  const entries: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < body.length; i += 1) {
    const c = body[i];
    if (c === '(' || c === '[' || c === '{') depth += 1;
    else if (c === ')' || c === ']' || c === '}') depth -= 1;
    else if (c === ',' && depth === 0) {
      entries.push(body.slice(start, i));
      start = i + 1;
    }
  }
  entries.push(body.slice(start));
  const found: FoundExport[] = [];
  for (const raw of entries) {
    const entry = raw.trim();
    let m: RegExpExecArray | null;
    if (entry === '' || entry.startsWith('...')) continue;
    if ((m = new RegExp(`^(?:get|set)\\s+(${identifier})\\s*\\(`).exec(entry))) found.push({ name: m[1] ?? '', kind: 'value' });
    else if ((m = new RegExp(`^(?:async\\s+)?\\*?\\s*(${identifier})\\s*\\(`).exec(entry)))
      found.push({ name: m[1] ?? '', kind: 'function' });
    else if ((m = new RegExp(`^(${identifier})\\s*:`).exec(entry)))
      found.push({ name: m[1] ?? '', kind: classifyExpression(entry.slice(m[0].length), locals) });
    else if (identifierOnly.test(entry)) {
      const local = locals.get(entry);
      found.push({ name: entry, kind: local === 'function' || local === 'class' ? local : 'value' });
    }
  }
  return found;
};

const commonJsExports = (code: string, locals: Map<string, ExportKind | 'type'>, found: Map<string, ExportKind>): void => {
  for (const match of code.matchAll(/(?<![\w$.])module\.exports\s*=(?![=>])\s*/g)) {
    const after = match.index + match[0].length;
    if (code[after] === '{') {
      for (const entry of objectLiteralEntries(code, after, locals)) if (!found.has(entry.name)) found.set(entry.name, entry.kind);
    } else if (!found.has(wholeModule)) found.set(wholeModule, classifyExpression(code.slice(after, after + 2_000), locals));
  }
  for (const match of code.matchAll(new RegExp(`(?<![\\w$.])(?:module\\.)?exports\\.(${identifier})\\s*=(?![=>])`, 'g'))) {
    const name = match[1] ?? '';
    if (name === '__esModule' || found.has(name)) continue;
    found.set(name, classifyExpression(code.slice(match.index + match[0].length, match.index + match[0].length + 2_000), locals));
  }
};

/** The exports of a JavaScript or TypeScript source, sorted by name; both ESM and CommonJS forms are read. */
export const findJsExports = (source: string): FoundExport[] => {
  const code = maskJs(source);
  const depths = braceDepths(code);
  const locals = localDeclarations(code, depths);
  const found = new Map<string, ExportKind>();
  esmExports(code, depths, locals, found);
  commonJsExports(code, locals, found);
  return byName(found);
};

/** True when the source has an ES `import`/`export` statement at the top level (so TypeScript treats it as a module). */
export const hasEsmSyntax = (source: string): boolean => {
  const code = maskJs(source);
  const depths = braceDepths(code);
  for (const match of code.matchAll(/(?<![\w$.])(?:import|export)\b(?!\s*\()/g)) if (depths[match.index] === 0) return true;
  return false;
};

// ---- Python ----

/** The source with comments and the insides of string literals (including triple-quoted ones) blanked, newlines kept. */
export const maskPython = (source: string): string => {
  const out = source.split('');
  const length = source.length;
  const blank = (from: number, to: number): void => {
    for (let k = from; k < to && k < length; k += 1) if (out[k] !== '\n') out[k] = ' ';
  };
  let i = 0;
  while (i < length) {
    const c = source[i] ?? '';
    if (c === '#') {
      const end = source.indexOf('\n', i);
      const stop = end < 0 ? length : end;
      blank(i, stop);
      i = stop;
    } else if (c === '"' || c === "'") {
      const triple = source.startsWith(c.repeat(3), i);
      const quote = triple ? c.repeat(3) : c;
      let j = i + quote.length;
      while (j < length) {
        if (source[j] === '\\') j += 2;
        else if (source.startsWith(quote, j)) break;
        else if (!triple && source[j] === '\n') break;
        else j += 1;
      }
      blank(i + quote.length, j);
      i = Math.min(length, source.startsWith(quote, j) ? j + quote.length : j);
    } else i += 1;
  }
  return out.join('');
};

/** Public top-level functions and classes of a Python module, sorted by name. */
export const findPythonDefinitions = (source: string): FoundExport[] => {
  const code = maskPython(source);
  const found = new Map<string, ExportKind>();
  for (const match of code.matchAll(/^(?:async[ \t]+)?def[ \t]+([A-Za-z_]\w*)[ \t]*\(/gm)) {
    const name = match[1] ?? '';
    if (!name.startsWith('_') && !found.has(name)) found.set(name, 'function');
  }
  for (const match of code.matchAll(/^class[ \t]+([A-Za-z_]\w*)[ \t]*[:(]/gm)) {
    const name = match[1] ?? '';
    if (!name.startsWith('_') && !found.has(name)) found.set(name, 'class');
  }
  return byName(found);
};
