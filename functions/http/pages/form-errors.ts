import { ApiError } from '../../core/errors';

/** An edit form's save refused because someone else saved first (the form's `etag` was no longer current). */
export const isChangedMeanwhile = (error: unknown): boolean => error instanceof ApiError && error.code === 'precondition_failed';

const changedMeanwhileMessage =
  'Someone else changed this after you opened the page, so nothing was saved. The form now shows their change, with the fields you changed as you left them: check it, then save again.';

/**
 * The messages of a validation error for a form's summary, each naming the field by its label (or
 * the one message of a save that someone else's came before); any other error goes on up to the
 * page pipeline (an error page with its status).
 */
export const formErrors = (error: unknown, labels: Record<string, string> = {}): string[] => {
  if (isChangedMeanwhile(error)) return [changedMeanwhileMessage];
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
