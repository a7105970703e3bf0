import { toJsonSchema, toJsonSchemaDefs, type ConversionConfig } from '@valibot/to-json-schema';
import type * as v from 'valibot';
import { allScopes, scopeDescriptions } from '../core/credentials/scopes';
import { errorStatus } from '../http/error-status';
import { corsSettings } from '../http/cors';
import { componentSchemas, responseSchemas } from '../routes/index';
import { type AnyRoute, refusesBody, type ResponseSchemas } from '../routes/route';
import { documentedAsSent, documentedKeywords } from '../routes/schemas/common';
import { requestExamples, responseExamples } from './examples';

type Json = Record<string, unknown>;

const conversion = (typeMode: ConversionConfig['typeMode'], definitions?: Record<string, v.GenericSchema>): ConversionConfig => ({
  target: 'draft-2020-12',
  typeMode,
  errorMode: 'ignore',
  // Checks the server makes by code (lengths in code points…) with the keywords that say the same.
  overrideAction: ({ valibotAction, jsonSchema }) => {
    const keywords = documentedKeywords.get(valibotAction);
    return keywords ? { ...jsonSchema, ...keywords } : undefined;
  },
  // A named schema is referred to where the document keeps it, not in a `$defs` of each use.
  ...(definitions ? { definitions, overrideRef: ({ referenceId }) => `#/components/schemas/${referenceId}` } : {}),
});

/**
 * `schema` in JSON Schema; an answer refers to each of `componentSchemas` it holds by name
 * (`#/components/schemas/…`), so a resource an event carries is described once.
 */
const convert = (schema: v.GenericSchema, typeMode: ConversionConfig['typeMode']): Json => {
  const definitions = typeMode === 'output' ? componentSchemas : undefined;
  const { $schema: _ignored, $defs: _named, ...rest } = toJsonSchema(schema, conversion(typeMode, definitions)) as Json;
  return rest;
};

/** `componentSchemas` in JSON Schema, for `components/schemas`. */
const namedSchemas = (): Json => toJsonSchemaDefs(componentSchemas, conversion('output', componentSchemas)) as Json;

const statusDescriptions: Record<number, string> = {
  400: 'Invalid JSON body, or two different credentials sent.',
  401: 'Missing, malformed, unknown, revoked or expired credential.',
  403: 'The credential lacks the scope of this operation.',
  404: 'No such resource in this account and mode.',
  405: 'The path exists but not with this method.',
  409: 'The resource is in a state that forbids this, or the Idempotency-Key is still in flight.',
  412: "`If-Match` names none of the resource's current `ETag` (`precondition_failed`): it changed since it was read, and nothing was written.",
  413: 'The body is larger than 1 MiB.',
  415: 'A body not sent as JSON: `application/json` or a `+json` type (RFC 6839), such as `application/merge-patch+json`.',
  422: 'A field or parameter is invalid (`validation_error`), or an Idempotency-Key was reused for another request.',
  429: 'Too many requests; retry after `Retry-After` seconds.',
  500: 'Unexpected fault on our side; no internals are shown.',
};

const takesIfMatch = (route: AnyRoute): boolean => route.entityTag === true && (route.method === 'PATCH' || route.method === 'DELETE');

/** A GET whose answer can be 304: a file (the finding's patch) or a resource with an entity tag. */
const answersNotModified = (route: AnyRoute): boolean =>
  route.method === 'GET' && (route.success.mediaType !== undefined || route.entityTag === true);

const errorStatuses = (route: AnyRoute): number[] => {
  const statuses = new Set<number>(route.errors ?? []);
  statuses.add(500);
  if (route.scope !== null) [401, 403, 429, 400].forEach((s) => statuses.add(s));
  // Every operation refuses a parameter it does not know, even one that takes none.
  statuses.add(422);
  // A POST that takes no body still refuses one that is not JSON or too large (`refusesBody`).
  if (route.body || refusesBody(route)) [413, 415].forEach((s) => statuses.add(s));
  if (route.method === 'POST' && route.scope !== null) [409, 422].forEach((s) => statuses.add(s));
  if (takesIfMatch(route)) statuses.add(412);
  return [...statuses].sort();
};

const objectEntries = (schema: v.GenericSchema | undefined): [string, v.GenericSchema, boolean][] => {
  const entries = (
    schema as unknown as { entries?: Record<string, v.GenericSchema & { type: string; wrapped?: v.GenericSchema }> } | undefined
  )?.entries;
  return Object.entries(entries ?? {}).map(([name, entry]) =>
    entry.type === 'optional' && entry.wrapped ? [name, entry.wrapped, false] : [name, entry, true],
  );
};

const parametersOf = (route: AnyRoute): Json[] => {
  const parameters: Json[] = [];
  for (const [name] of objectEntries(route.params)) {
    parameters.push({ name, in: 'path', required: true, schema: { type: 'string' } });
  }
  for (const [name, schema, required] of objectEntries(route.query)) {
    const converted = convert(schema, documentedAsSent.has(schema) ? 'input' : 'output');
    parameters.push({ name, in: 'query', required, description: converted.description, schema: converted });
  }
  if (route.method === 'POST' && route.scope !== null) {
    parameters.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description:
        'Same key and same request within 24 h replays the first answer (`Idempotent-Replayed: true`), its body as it was: an error repeats the first `request_id`, while `X-Request-Id` names this request. Keys are scoped to the account and mode.',
      schema: { type: 'string', minLength: 1, maxLength: 255 },
    });
  }
  if (answersNotModified(route)) {
    parameters.push({
      name: 'If-None-Match',
      in: 'header',
      required: false,
      description: 'The `ETag` of a copy the client holds: when it still matches, the answer is 304 with no body.',
      schema: { type: 'string' },
    });
  }
  if (takesIfMatch(route)) {
    parameters.push({
      name: 'If-Match',
      in: 'header',
      required: false,
      description:
        'The `ETag` the resource had when it was read (or `*`): the change is made only while it is still current, so a change made meanwhile by someone else is not overwritten; otherwise 412 `precondition_failed` and nothing is written. A weak tag (`W/`) never matches.',
      schema: { type: 'string' },
    });
  }
  return parameters;
};

/** Every header an operation's answers may carry, under `components/headers`. */
const sharedHeaders = {
  RequestId: { description: 'Id of this request; error bodies repeat it as error.request_id.', schema: { type: 'string' } },
  Location: { description: 'URL of the new resource.', schema: { type: 'string' } },
  Link: {
    description: 'RFC 8288 links: on a list first, prev, next (with a cursor), last; on a deprecated operation a `rel="deprecation"` link.',
    schema: { type: 'string' },
  },
  ETag: {
    description:
      "The representation's entity tag, quoted: the SHA-256 (lowercase hex) of a file's body, or of a resource's `data` as JSON with its keys sorted. It changes whenever anything the resource shows changes.",
    schema: { type: 'string' },
  },
  ContentDisposition: {
    description: 'A representation that is a file names it: `inline; filename="fnd_….patch"`.',
    schema: { type: 'string' },
  },
  RateLimit: {
    description:
      'This credential\'s bucket: `"credential";r=<requests left>;t=<seconds until it is full>` (on a 429: until a request can succeed); draft-ietf-httpapi-ratelimit-headers-11. On every answer to a request with a valid credential.',
    schema: { type: 'string' },
  },
  RateLimitPolicy: {
    description:
      'The limit: `"credential";q=<burst>;w=<seconds to refill it>`; draft-ietf-httpapi-ratelimit-headers-11. Sent with `RateLimit`.',
    schema: { type: 'string' },
  },
  RetryAfter: {
    description: 'Seconds to wait before the next request can succeed.',
    required: true,
    schema: { type: 'integer', minimum: 1 },
  },
  WWWAuthenticate: {
    description:
      'The RFC 6750 challenge: `Bearer realm="api"` when no credential was sent, with `error="invalid_token"` for one that does not work (`invalid_request` for an Authorization header of another form), and on 403 `error="insufficient_scope", scope="<the scope needed>"`.',
    required: true,
    schema: { type: 'string' },
  },
  Allow: { description: 'The methods the path allows, comma-separated.', required: true, schema: { type: 'string' } },
  IdempotentReplayed: {
    description: '`true` when this answer replays the first answer to the same `Idempotency-Key`; absent otherwise.',
    schema: { type: 'string', enum: ['true'] },
  },
  Deprecation: { description: 'When the operation was deprecated: `@<unix seconds>` (RFC 9745).', schema: { type: 'string' } },
  Sunset: { description: 'When the operation stops working, an HTTP-date (RFC 8594).', schema: { type: 'string' } },
} satisfies Record<string, Json>;

/** A header the service sends, declared once under `components/headers` and referred to by name. */
const header = (name: keyof typeof sharedHeaders): Json => ({ $ref: `#/components/headers/${name}` });

/**
 * The headers the service sends on an answer of `route` with `status` (beyond the representation's
 * own, `Content-Type`, `Cache-Control` and CORS): `X-Request-Id` always; `RateLimit` and
 * `RateLimit-Policy` on an authenticated operation whatever it answers, except 401 (no credential
 * to count); `Retry-After` on 429; `WWW-Authenticate` on 401 and (an authenticated operation's) 403; `Allow` on 405; `Idempotent-Replayed`
 * on whatever a POST can replay (not what comes before the key is claimed, nor a 500, which is not
 * kept); `Deprecation`, `Sunset` and a `Link` on every answer of a deprecated operation.
 */
const headersOf = (route: AnyRoute, status: number): Json => {
  const headers: Json = { 'X-Request-Id': header('RequestId') };
  if (status === 201) headers.Location = header('Location');
  if (status === route.success.status && route.success.list) headers.Link = header('Link');
  if ((route.success.mediaType || route.entityTag) && status !== 204 && (status === route.success.status || status === 304)) {
    headers.ETag = header('ETag');
  }
  if (route.success.mediaType && status === route.success.status) headers['Content-Disposition'] = header('ContentDisposition');
  if (route.scope !== null && status !== 401) {
    headers.RateLimit = header('RateLimit');
    headers['RateLimit-Policy'] = header('RateLimitPolicy');
  }
  if (status === 429) headers['Retry-After'] = header('RetryAfter');
  if (status === 401 || (status === 403 && route.scope !== null)) headers['WWW-Authenticate'] = header('WWWAuthenticate');
  if (status === 405) headers.Allow = header('Allow');
  if (route.method === 'POST' && route.scope !== null && ![401, 413, 415, 429, 500].includes(status)) {
    headers['Idempotent-Replayed'] = header('IdempotentReplayed');
  }
  if (route.deprecation) {
    headers.Deprecation = header('Deprecation');
    if (route.deprecation.sunset) headers.Sunset = header('Sunset');
    if (route.deprecation.link) headers.Link = header('Link');
  }
  return headers;
};

const successResponse = (route: AnyRoute, responses: ResponseSchemas): Json => {
  const { success } = route;
  const headers = headersOf(route, success.status);
  const schema = responses[route.operationId];
  if (success.status === 204 || !schema) return { description: success.description, headers };
  const data = convert(schema, 'output');
  if (success.mediaType) {
    return {
      description: success.description,
      headers,
      content: { [success.mediaType]: withExample({ schema: data }, responseExamples, route) },
    };
  }
  const body =
    route.scope === null
      ? data
      : success.list
        ? {
            type: 'object',
            required: ['data', 'meta'],
            properties: { data: { type: 'array', items: data }, meta: { $ref: '#/components/schemas/PageMeta' } },
          }
        : { type: 'object', required: ['data'], properties: { data } };
  return {
    description: success.description,
    headers,
    content: { 'application/json': withExample({ schema: body }, responseExamples, route) },
  };
};

/** A media type object with the operation's example, when it has one. */
const withExample = (media: Json, examples: Readonly<Record<string, unknown>>, route: AnyRoute): Json =>
  examples[route.operationId] === undefined ? media : { ...media, example: examples[route.operationId] };

const operationOf = (route: AnyRoute, schemas: ResponseSchemas): Json => {
  const responses: Json = { [String(route.success.status)]: successResponse(route, schemas) };
  if (answersNotModified(route)) {
    responses['304'] = {
      description: 'Not modified: `If-None-Match` names the current `ETag`; keep the copy held.',
      headers: headersOf(route, 304),
    };
  }
  for (const status of errorStatuses(route)) {
    responses[String(status)] = {
      description: statusDescriptions[status] ?? 'Error.',
      headers: headersOf(route, status),
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    };
  }
  const scopeNote = route.scope === null ? 'No credential needed.' : `Requires the scope \`${route.scope}\`.`;
  return {
    operationId: route.operationId,
    summary: route.summary,
    description: [route.description, scopeNote].filter(Boolean).join('\n\n'),
    tags: [route.tag],
    'x-required-scope': route.scope,
    ...(route.deprecation ? { deprecated: true } : {}),
    security: route.scope === null ? [] : [{ bearerAuth: [route.scope] }, { apiKeyHeader: [route.scope] }, { oauth2: [route.scope] }],
    parameters: parametersOf(route),
    // An optional body may be left out entirely (it then reads as `{}`): the document says so.
    ...(route.body
      ? {
          requestBody: {
            required: route.optionalBody !== true,
            content: { 'application/json': withExample({ schema: convert(route.body, 'input') }, requestExamples, route) },
          },
        }
      : {}),
    responses,
  };
};

/**
 * The OpenAPI 3.1 document of the route table (its API operations: not the reference page), with
 * each operation's success `data` from `schemas` (the route table's own by default).
 */
export const buildOpenApiDocument = (table: readonly AnyRoute[], schemas: ResponseSchemas = responseSchemas): Json => {
  const routes = table.filter((route) => route.inOpenApi !== false);
  const paths: Record<string, Json> = {};
  for (const route of routes) {
    paths[route.path] = { ...paths[route.path], [route.method.toLowerCase()]: operationOf(route, schemas) };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Project Automation Service',
      version: '1.0.0',
      description:
        'Projects, AI-driven workflows, security scans, deployments, AI-generated tests and signed webhooks. ' +
        'Every success answer wraps its resource in `data` (lists add `meta` and a `Link` header); every error is ' +
        '`{ "error": { code, message, details?, request_id } }`. Timestamps are ISO 8601 UTC with milliseconds. ' +
        `CORS allows the headers ${corsSettings.allowHeaders.join(', ')} and exposes ${corsSettings.exposeHeaders.join(', ')}.`,
    },
    servers: [{ url: '/', description: 'The API root (the deployment URL without /v1)' }],
    tags: [...new Set(routes.map((r) => r.tag))].map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description: 'Authorization: Bearer svc_live_… | svc_test_… | svc_ro_… | svc_pat_… | svc_oauth_…',
        },
        apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
        oauth2: {
          type: 'oauth2',
          description:
            'Applications acting for other accounts: the authorization code flow with PKCE (S256; required for public clients). ' +
            'The authorization server is the API origin; its RFC 8414 metadata is at /.well-known/oauth-authorization-server. ' +
            'Access tokens (svc_oauth_…) last 3600 s and act in live mode; refresh tokens (svc_refresh_…) rotate on every use.',
          flows: {
            authorizationCode: {
              authorizationUrl: '/oauth/authorize',
              tokenUrl: '/oauth/token',
              refreshUrl: '/oauth/token',
              scopes: Object.fromEntries(allScopes.map((scope) => [scope, scopeDescriptions[scope]])),
            },
          },
        },
      },
      headers: sharedHeaders,
      schemas: {
        ...namedSchemas(),
        PageMeta: {
          type: 'object',
          required: ['page', 'per_page', 'total', 'total_pages'],
          properties: {
            page: { type: 'integer' },
            per_page: { type: 'integer' },
            total: { type: 'integer' },
            total_pages: { type: 'integer' },
          },
        },
        Error: {
          type: 'object',
          required: ['error'],
          properties: {
            error: {
              type: 'object',
              required: ['code', 'message', 'request_id'],
              properties: {
                code: { type: 'string', enum: Object.keys(errorStatus) },
                message: { type: 'string' },
                details: {
                  description: 'For validation_error: { field, issue }; for insufficient_scope: { required_scope }.',
                  type: 'object',
                },
                errors: {
                  description: 'Every issue, when there is more than one.',
                  type: 'array',
                  items: { type: 'object', properties: { field: { type: 'string' }, issue: { type: 'string' } } },
                },
                request_id: { type: 'string' },
              },
            },
          },
        },
      },
    },
  };
};
