import * as v from 'valibot';
import { type FieldIssue, validationError } from '../core/errors';

const issueText = (issue: v.BaseIssue<unknown>, where: 'body' | 'query' | 'params'): string => {
  if (issue.expected === 'never') return where === 'query' ? 'is not a known parameter' : 'is not a known field';
  if (issue.input === undefined && issue.path?.length) return 'is required';
  if (issue.type === 'object' || issue.type === 'strict_object') return 'must be a JSON object';
  return issue.message;
};

export const toFieldIssues = (issues: readonly v.BaseIssue<unknown>[], where: 'body' | 'query' | 'params'): FieldIssue[] =>
  issues.map((issue) => ({
    field: v.getDotPath(issue) ?? (where === 'body' ? 'body' : where),
    issue: issueText(issue, where),
  }));

/** The first problem of each field is enough to act on. */
const oncePerField = (issues: FieldIssue[]): FieldIssue[] =>
  issues.filter((issue, i) => issues.findIndex((other) => other.field === issue.field) === i);

/** Parses `input` with `schema`, or throws a 422 naming every problem. */
export const parseWith = <S extends v.GenericSchema>(schema: S, input: unknown, where: 'body' | 'query' | 'params'): v.InferOutput<S> => {
  // Every body is a JSON object; valibot would take an array for one with numbered keys.
  if (where === 'body' && (typeof input !== 'object' || input === null || Array.isArray(input))) {
    throw validationError([{ field: 'body', issue: 'must be a JSON object' }]);
  }
  const result = v.safeParse(schema, input);
  if (result.success) return result.output;
  throw validationError(oncePerField(toFieldIssues(result.issues, where)));
};
