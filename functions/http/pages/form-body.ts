import type { APIGatewayProxyEventV2 } from 'aws-lambda';

/** Forms of the pages are small; anything larger is refused before it is parsed. */
export const maxFormBytes = 64 * 1024;

export type FormBody = { form: URLSearchParams } | { problem: 'too_large' | 'unsupported_media_type' };

/** An HTML form's body (`application/x-www-form-urlencoded`, what a browser sends by default). */
export const readFormBody = (event: APIGatewayProxyEventV2): FormBody => {
  const raw = event.body ? (event.isBase64Encoded ? Buffer.from(event.body, 'base64') : Buffer.from(event.body, 'utf8')) : Buffer.alloc(0);
  if (raw.length > maxFormBytes) return { problem: 'too_large' };
  const type = (event.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (raw.length > 0 && type !== 'application/x-www-form-urlencoded') return { problem: 'unsupported_media_type' };
  return { form: new URLSearchParams(raw.toString('utf8')) };
};
