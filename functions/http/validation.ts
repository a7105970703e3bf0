import * as v from 'valibot';
import { type FieldIssue, validationError } from '../core/errors';

type Where = 'body' | 'query' | 'params';

/** The keys an object schema (or a pipe that starts with one) declares. */
const declaredKeys = (schema: v.GenericSchema): string[] => {
  const shape = schema as unknown as { entries?: Record<string, unknown>; pipe?: readonly v.GenericSchema[] };
  if (shape.entries) return Object.keys(shape.entries);
  const [first] = shape.pipe ?? [];
  return first && first !== schema ? declaredKeys(first) : [];
};

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

/** Parses `input` with `schema`, or throws a 422 naming every problem. */
export const parseWith = <S extends v.GenericSchema>(schema: S, input: unknown, where: Where): v.InferOutput<S> => {
  // Every body is a JSON object; valibot would take an array for one with numbered keys.
  if (where === 'body' && (typeof input !== 'object' || input === null || Array.isArray(input))) {
    throw validationError([{ field: 'body', issue: 'must be a JSON object' }]);
  }
  const result = v.safeParse(schema, input);
  if (result.success) return result.output;
  throw validationError(oncePerField(toFieldIssues(result.issues, where, where === 'query' ? declaredKeys(schema) : [])));
};
