export {
  createClient,
  apiRootOf,
  type ClientOptions,
  type ServiceClient,
  type SuccessBody,
  type Answer,
  type ListPath,
  type ListItem,
} from './client.js';
export { isNotModified, type NotModified } from './not-modified.js';
export { responseOf, type ResponseInfo } from './response-of.js';
export type { OAuthOptions, OAuthTokens } from './auth.js';
export type { RetryOptions } from './retry.js';
export {
  ServiceError,
  ServiceApiError,
  ServiceConnectionError,
  ServiceTimeoutError,
  WebhookSignatureError,
  type ErrorBody,
} from './errors.js';
export {
  webhooks,
  constructEvent,
  verifySignature,
  signPayload,
  signatureHeaderName,
  type ConstructEventOptions,
  type SignatureHeader,
} from './webhooks.js';
export { eventTypes, type EventType, type ServiceEvent, type EventOf } from './generated/events.js';
export type { paths, operations, components } from './generated/openapi.js';
