import fc from 'fast-check';

export type JsonSchema = Record<string, any>;

/** Values of one property chosen by the caller instead of generated (loopback URLs, ids that exist). */
export type Overrides = Record<string, fc.Arbitrary<unknown>>;

const dayMs = 86_400_000;
const instants = fc
  .integer({ min: Date.UTC(2000, 0, 1) / dayMs, max: Date.UTC(2100, 0, 1) / dayMs })
  .chain((day) => fc.integer({ min: 0, max: dayMs - 1 }).map((ms) => new Date(day * dayMs + ms)));

/** `pattern` with its `(?=…)` and `(?!…)` groups taken out (escapes and character classes respected). */
const withoutLookaheads = (pattern: string): string => {
  let out = '';
  for (let i = 0; i < pattern.length; i += 1) {
    if (pattern.startsWith('(?=', i) || pattern.startsWith('(?!', i)) {
      let depth = 0;
      let inClass = false;
      for (; i < pattern.length; i += 1) {
        const char = pattern[i];
        if (char === '\\') i += 1;
        else if (inClass) inClass = char !== ']';
        else if (char === '[') inClass = true;
        else if (char === '(') depth += 1;
        else if (char === ')' && --depth === 0) break;
      }
      continue;
    }
    out += pattern[i];
  }
  return out;
};

const stringOf = (schema: JsonSchema): fc.Arbitrary<string> => {
  if (schema.format === 'date-time') return instants.map((date) => date.toISOString());
  if (schema.format === 'date') return instants.map((date) => date.toISOString().slice(0, 10));
  const minLength: number = schema.minLength ?? 0;
  const maxLength: number = Math.min(schema.maxLength ?? minLength + 40, minLength + 40);
  const fits = (text: string) => {
    const length = [...text].length;
    return length >= minLength && length <= (schema.maxLength ?? Infinity);
  };
  if (schema.pattern) {
    const pattern = new RegExp(schema.pattern, 'u');
    // fast-check cannot generate from lookaheads: generate without them, keep what the whole pattern takes.
    return fc.stringMatching(new RegExp(withoutLookaheads(schema.pattern))).filter((text) => fits(text) && pattern.test(text));
  }
  return fc.string({ minLength, maxLength, unit: 'grapheme' });
};

/**
 * Values valid against `schema`, for the subset of JSON Schema that `@valibot/to-json-schema`
 * emits for this service (type, enum, const, anyOf, string lengths/pattern/format, number
 * bounds, arrays, objects with required and optional properties). A property named in
 * `overrides` takes the caller's values at any depth.
 */
export const valueOf = (schema: JsonSchema, overrides: Overrides = {}): fc.Arbitrary<unknown> => {
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...schema.enum);
  if (Array.isArray(schema.anyOf)) return fc.oneof(...schema.anyOf.map((option: JsonSchema) => valueOf(option, overrides)));
  if (Array.isArray(schema.oneOf)) return fc.oneof(...schema.oneOf.map((option: JsonSchema) => valueOf(option, overrides)));
  switch (schema.type) {
    case 'string':
      return stringOf(schema);
    case 'integer':
      return fc.integer({ min: schema.minimum ?? -1_000_000, max: schema.maximum ?? 1_000_000 });
    case 'number':
      return fc.double({ min: schema.minimum ?? -1e6, max: schema.maximum ?? 1e6, noNaN: true, noDefaultInfinity: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const minLength: number = schema.minItems ?? 0;
      return fc.array(valueOf(schema.items ?? {}, overrides), {
        minLength,
        maxLength: Math.min(schema.maxItems ?? minLength + 3, minLength + 3),
      });
    }
    case 'object':
      return objectOf(schema, overrides);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
};

const objectOf = (schema: JsonSchema, overrides: Overrides): fc.Arbitrary<Record<string, unknown>> => {
  const properties: Record<string, JsonSchema> = schema.properties ?? {};
  const required: string[] = schema.required ?? [];
  if (Object.keys(properties).length === 0)
    return fc.dictionary(fc.string({ maxLength: 10 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 });
  const model = Object.fromEntries(
    Object.entries(properties).map(([name, property]) => [name, overrides[name] ?? valueOf(property, overrides)]),
  );
  return fc
    .record(model, { requiredKeys: required })
    .filter((value) => Object.keys(value).length >= (schema.minProperties ?? 0)) as fc.Arbitrary<Record<string, unknown>>;
};

/** A value of another JSON type than `schema` takes: what a careless client sends. */
export const wrongTypeFor = (schema: JsonSchema): fc.Arbitrary<unknown> => {
  const candidates: fc.Arbitrary<unknown>[] = [];
  const types = new Set<string>(
    Array.isArray(schema.anyOf) ? schema.anyOf.map((option: JsonSchema) => option.type) : [schema.enum ? 'string' : schema.type],
  );
  if (!types.has('string')) candidates.push(fc.string({ maxLength: 8 }));
  if (!types.has('integer') && !types.has('number')) candidates.push(fc.integer());
  if (!types.has('boolean')) candidates.push(fc.boolean());
  if (!types.has('array')) candidates.push(fc.array(fc.integer(), { maxLength: 2 }));
  if (!types.has('object')) candidates.push(fc.constant({ nested: true }));
  if (!types.has('null')) candidates.push(fc.constant(null));
  return fc.oneof(...candidates);
};
