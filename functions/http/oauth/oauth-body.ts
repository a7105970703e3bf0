import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { OAuthProblem } from './oauth-problem';

const maxBodyBytes = 64 * 1024;

/**
 * The parameters of a token or revocation request: a form (`application/x-www-form-urlencoded`,
 * as RFC 6749 says) or a flat JSON object of strings (as the spec shows). A parameter sent twice
 * is refused, and one sent without a value is as if it were left out (RFC 6749 3.2).
 */
export const readOAuthParameters = (event: APIGatewayProxyEventV2): Record<string, string> => {
  const raw = event.body ? (event.isBase64Encoded ? Buffer.from(event.body, 'base64') : Buffer.from(event.body, 'utf8')) : Buffer.alloc(0);
  if (raw.length > maxBodyBytes) throw new OAuthProblem('invalid_request', `The body is larger than ${maxBodyBytes} bytes.`);
  const type = (event.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  const text = raw.toString('utf8');

  if (type === 'application/json') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new OAuthProblem('invalid_request', 'The body is not valid JSON.');
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw new OAuthProblem('invalid_request', 'The JSON body must be an object of parameters.');
    }
    const parameters: Record<string, string> = {};
    for (const [name, value] of Object.entries(parsed)) {
      if (typeof value !== 'string') throw new OAuthProblem('invalid_request', `The parameter ${name} must be a string.`);
      if (value !== '') parameters[name] = value;
    }
    return parameters;
  }

  if (type === 'application/x-www-form-urlencoded') {
    const form = new URLSearchParams(text);
    const parameters: Record<string, string> = {};
    for (const name of new Set(form.keys())) {
      const values = form.getAll(name);
      if (values.length > 1) throw new OAuthProblem('invalid_request', `The parameter ${name} is sent more than once.`);
      if (values[0] !== '') parameters[name] = values[0] as string;
    }
    return parameters;
  }

  throw new OAuthProblem('invalid_request', 'Send the parameters as application/x-www-form-urlencoded or application/json.');
};
