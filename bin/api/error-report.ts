/** An error answer, from the API (the SDK's `ServiceApiError`) or from an admin command's use case (`ApiError`). */
export interface Failure {
  status: number;
  code: string;
  message: string;
  details?: Record<string, unknown>;
  errors?: { field?: string; issue?: string }[];
  requestId?: string;
}

/** The details the message does not already say: a `{ field, issue }` is in the message as "Invalid <field>: <issue>". */
const detailsBeyondMessage = (failure: Failure): Record<string, unknown> | undefined => {
  const rest = Object.entries(failure.details ?? {}).filter(
    ([key, value]) => !((key === 'field' || key === 'issue') && typeof value === 'string' && failure.message.includes(value)),
  );
  return rest.length > 0 ? Object.fromEntries(rest) : undefined;
};

/**
 * What every CLI command prints on stderr for an error answer, API and admin commands alike:
 * `Error <status> <code>: <message> (request <id>)` then every field's issue when there are
 * several, or the details the message leaves out; with --json the envelope the API answers.
 */
export const errorReport = (failure: Failure, json: boolean, optionOf: (field: string) => string | undefined = () => undefined): string => {
  if (json)
    return JSON.stringify({
      error: {
        status: failure.status,
        code: failure.code,
        message: failure.message,
        details: failure.details,
        ...(failure.errors ? { errors: failure.errors } : {}),
        ...(failure.requestId ? { request_id: failure.requestId } : {}),
      },
    });
  const extra = detailsBeyondMessage(failure);
  // The option a field came from, for a command line whose names are not the API's (--project for project_id).
  const from = (field: string | undefined) => {
    const option = field === undefined ? undefined : optionOf(field);
    return option ? ` (set by --${option})` : '';
  };
  const single = typeof failure.details?.field === 'string' ? failure.details.field : undefined;
  const detail =
    failure.errors && failure.errors.length > 1
      ? failure.errors.map((issue) => `\n  ${issue.field ?? '(body)'}: ${issue.issue ?? ''}${from(issue.field)}`).join('')
      : `${extra ? ` ${JSON.stringify(extra)}` : ''}${single && from(single) ? `\n  ${single}${from(single)}` : ''}`;
  return `Error ${failure.status} ${failure.code}: ${failure.message}${failure.requestId ? ` (request ${failure.requestId})` : ''}${detail}`;
};
