import { ApiError } from '../../core/errors';

/**
 * The messages of a validation error for a form's summary, each naming the field by its label;
 * any other error goes on up to the page pipeline (an error page with its status).
 */
export const formErrors = (error: unknown, labels: Record<string, string> = {}): string[] => {
  if (error instanceof ApiError && error.code === 'validation_error') {
    const issues = error.errors ?? [];
    return issues.length > 0 ? issues.map((i) => `${labels[i.field] ?? i.field}: ${i.issue}`) : [error.message];
  }
  throw error;
};

/**
 * The issues of a validation error by field, to show beside each field (several issues of one
 * field joined); any other error goes on up to the page pipeline.
 */
export const fieldErrors = (error: unknown): Record<string, string> => {
  if (error instanceof ApiError && error.code === 'validation_error') {
    const byField: Record<string, string[]> = {};
    for (const { field, issue } of error.errors ?? []) (byField[field] ??= []).push(issue);
    return Object.fromEntries(Object.entries(byField).map(([field, issues]) => [field, issues.join('; ')]));
  }
  throw error;
};
