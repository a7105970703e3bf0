import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { PageMeta } from '../core/pagination';
import { publicOrigin } from './pages/origin';

/**
 * The origin absolute URLs (`Location`, `Link`) are built on, from what the client cannot choose:
 * the service's public origin, the same one pages and the OAuth issuer name. Never the `Host` or
 * `X-Forwarded-*` headers, which a caller writes as it likes.
 */
export const baseUrl = publicOrigin;

const pageUrl = (event: APIGatewayProxyEventV2, page: number, cursor?: string): string => {
  const params = new URLSearchParams(event.rawQueryString);
  params.set('page', String(page));
  params.delete('cursor');
  if (cursor) params.set('cursor', cursor);
  return `${baseUrl(event)}${event.rawPath}?${params.toString()}`;
};

/**
 * RFC 8288 links of a page. `next` carries the cursor, so walking on costs one page of reads, and is
 * there exactly when the list holds more items after this page: a walk that follows it sees every
 * item present throughout once, whatever is created or deleted meanwhile (`total` may have moved).
 */
export const paginationLinks = (event: APIGatewayProxyEventV2, meta: PageMeta, nextCursor?: string): string => {
  const lastPage = Math.max(1, meta.total_pages);
  const links = [`<${pageUrl(event, 1)}>; rel="first"`];
  if (meta.page > 1) links.push(`<${pageUrl(event, Math.min(meta.page - 1, lastPage))}>; rel="prev"`);
  if (nextCursor) links.push(`<${pageUrl(event, meta.page + 1, nextCursor)}>; rel="next"`);
  links.push(`<${pageUrl(event, lastPage)}>; rel="last"`);
  return links.join(', ');
};
