import * as v from 'valibot';
import { type FieldIssue, validationError } from '../core/errors';

type Where = 'body' | 'query' | 'params';

type SchemaShape = {
  type?: string;
  entries?: Record<string, v.GenericSchema>;
  wrapped?: v.GenericSchema;
  pipe?: readonly v.GenericSchema[];
};

/** The object schema `schema` is, or starts with, under optional, nullable and pipe; undefined for any other. */
const objectSchemaOf = (schema: v.GenericSchema | undefined): SchemaShape | undefined => {
  const shape = schema as unknown as SchemaShape | undefined;
  if (!shape) return undefined;
  if (shape.entries) return shape;
  if (shape.wrapped) return objectSchemaOf(shape.wrapped);
  const [first] = shape.pipe ?? [];
  return first && first !== schema ? objectSchemaOf(first) : undefined;
};

/** The keys an object schema (or a pipe that starts with one) declares. */
const declaredKeys = (schema: v.GenericSchema): string[] => Object.keys(objectSchemaOf(schema)?.entries ?? {});

/** An unknown query parameter names the ones the operation takes, as an unknown value names the allowed values. */
const unknownParameter = (known: readonly string[]): string =>
  known.length > 0 ? `is not a known parameter; must be one of ${known.join(', ')}` : 'is not a known parameter; this operation takes none';

const issueText = (issue: v.BaseIssue<unknown>, where: Where, known: readonly string[]): string => {
  if (issue.expected === 'never') return where === 'query' ? unknownParameter(known) : 'is not a known field';
  if (issue.input === undefined && issue.path?.length) return 'is required';
  if (issue.type === 'object' || issue.type === 'strict_object') return 'must be a JSON object';
  return issue.message;
};

/** `known`: the parameters the operation takes, named when a query parameter is unknown. */
export const toFieldIssues = (issues: readonly v.BaseIssue<unknown>[], where: Where, known: readonly string[] = []): FieldIssue[] =>
  issues.map((issue) => ({
    field: v.getDotPath(issue) ?? (where === 'body' ? 'body' : where),
    issue: issueText(issue, where, known),
  }));

/** The first problem of each field is enough to act on. */
const oncePerField = (issues: FieldIssue[]): FieldIssue[] =>
  issues.filter((issue, i) => issues.findIndex((other) => other.field === issue.field) === i);

/**
 * The fields given an array where the schema declares an object: valibot's object schemas take an
 * array (its numbered keys as the entries), so `config: []` would pass as `{}`.
 */
const arraysForObjects = (schema: SchemaShape, input: Record<string, unknown>, path: string): FieldIssue[] =>
  Object.entries(schema.entries ?? {}).flatMap(([key, entry]) => {
    const value = Object.hasOwn(input, key) ? input[key] : undefined;
    const inner = objectSchemaOf(entry);
    if (!inner || typeof value !== 'object' || value === null) return [];
    const field = path ? `${path}.${key}` : key;
    return Array.isArray(value)
      ? [{ field, issue: 'must be a JSON object' }]
      : arraysForObjects(inner, value as Record<string, unknown>, field);
  });

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Every key a strict object schema (at any depth) does not declare: valibot reports the first
 * unknown key of an object only, and a caller fixing them one request at a time deserves the list.
 */
const unknownKeys = (schema: SchemaShape, input: Record<string, unknown>, path: string): string[] =>
  Object.keys(input).flatMap((key) => {
    const field = path ? `${path}.${key}` : key;
    const entry = schema.entries?.[key];
    if (!entry) return schema.type === 'strict_object' ? [field] : [];
    const inner = objectSchemaOf(entry);
    const value = input[key];
    return inner && isPlainObject(value) ? unknownKeys(inner, value, field) : [];
  });

/**
 * Refuses a query parameter given twice (`per_page=5&per_page=6`): API Gateway joins the values
 * with a comma, which would be checked as one value and refused for the wrong reason.
 */
export const refuseRepeatedParameters = (rawQuery: string | undefined): void => {
  if (!rawQuery) return;
  const seen = new Set<string>();
  const repeated = new Set<string>();
  for (const [name] of new URLSearchParams(rawQuery)) {
    if (seen.has(name)) repeated.add(name);
    seen.add(name);
  }
  if (repeated.size > 0) throw validationError([...repeated].map((field) => ({ field, issue: 'is given more than once; give it once' })));
};

/** Parses `input` with `schema`, or throws a 422 naming every problem (each field's first). */
export const parseWith = <S extends v.GenericSchema>(schema: S, input: unknown, where: Where): v.InferOutput<S> => {
  // Every body is a JSON object; valibot would take an array for one with numbered keys.
  if (where === 'body' && (typeof input !== 'object' || input === null || Array.isArray(input))) {
    throw validationError([{ field: 'body', issue: 'must be a JSON object' }]);
  }
  const bodySchema = where === 'body' ? objectSchemaOf(schema) : undefined;
  const arrays = bodySchema ? arraysForObjects(bodySchema, input as Record<string, unknown>, '') : [];
  if (arrays.length > 0) throw validationError(arrays);
  const result = v.safeParse(schema, input);
  if (result.success) return result.output;
  const known = where === 'query' ? declaredKeys(schema) : [];
  const issues = toFieldIssues(result.issues, where, known);
  const shape = objectSchemaOf(schema);
  const unknown =
    shape && isPlainObject(input) && result.issues.some((issue) => issue.expected === 'never')
      ? unknownKeys(shape, input, '').map((field) => ({
          field,
          issue: where === 'query' ? unknownParameter(known) : 'is not a known field',
        }))
      : [];
  throw validationError(oncePerField([...issues, ...unknown]));
};
