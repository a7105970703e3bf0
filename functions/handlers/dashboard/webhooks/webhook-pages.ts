import { type EventType, eventTypes } from '../../../core/events/event-types';
import { getWebhook, listDeliveries, listWebhooks } from '../../../core/webhooks/webhook-use-cases';
import type { WebhookView } from '../../../core/webhooks/webhook';
import { entityTagOf } from '../../../core/preconditions';
import { strandedCutoff } from '../../../core/webhooks/delivery';
import type { DashboardRequest } from '../../../http/pages/dashboard-page';
import { checkedFilter, type FilterErrors, filtersRefused, listHref, pageListQuery, shownFilters } from '../../../http/pages/list-params';
import type { PageResult } from '../../../http/pages/page-handler';
import { parseWith } from '../../../http/validation';
import { WebhookPage, type WebhookPageProps, deliveryStatuses } from '../../../pages/views/dashboard/webhooks/webhook';
import { type WebhookForm, WebhooksPage, type WebhooksPageProps } from '../../../pages/views/dashboard/webhooks/webhooks';
import { createWebhookBody, updateWebhookBody } from '../../../routes/schemas/webhooks-bodies';
import { webhookDeps } from '../../webhooks/deps';

/** The webhook use cases' ports (no delivery queue: no page here queues an attempt). */
export const dashboardWebhookDeps = () => webhookDeps();

export const webhookIdOf = (request: Pick<DashboardRequest, 'event'>): string => request.event.pathParameters?.id ?? '';

export const webhooksPage = async (
  request: Pick<DashboardRequest, 'shell' | 'tenant' | 'query'>,
  extra: Partial<WebhooksPageProps> = {},
  status = 200,
): Promise<PageResult> => {
  const query = pageListQuery(request.query, { sorts: ['created_at'] as const, defaultSort: 'created_at' });
  const errors: FilterErrors = {};
  const state = checkedFilter(request.query, 'status', ['enabled', 'failed'] as const, errors);
  const refused = filtersRefused(errors);
  const page = refused ? { items: [], total: 0 } : await listWebhooks(request.tenant, query, { status: state }, dashboardWebhookDeps());
  return {
    status: refused && status === 200 ? 400 : status,
    page: WebhooksPage({
      shell: request.shell,
      webhooks: page.items,
      page: query.page,
      total: page.total,
      totalPages: Math.ceil(page.total / query.perPage),
      status: state,
      filterErrors: errors,
      hrefOf: (n) => listHref('/dashboard/webhooks', request.query, { page: n }),
      ...extra,
    }),
  };
};

/** What `GET` shows of the webhook: a page shown right after a rotation holds the new secret too. */
const shownByGet = ({ secret: _shownOnce, ...view }: WebhookView & { secret?: string }): WebhookView => view;

export const webhookPage = async (
  request: Pick<DashboardRequest, 'shell' | 'tenant' | 'query' | 'event'>,
  extra: Partial<WebhookPageProps> = {},
  status = 200,
): Promise<PageResult> => {
  const deps = dashboardWebhookDeps();
  const id = webhookIdOf(request);
  const webhook = extra.webhook ?? (await getWebhook(request.tenant, id, deps));
  const query = pageListQuery(request.query, { sorts: ['created_at'] as const, defaultSort: 'created_at' });
  const errors: FilterErrors = {};
  const filters = {
    status: checkedFilter(request.query, 'status', deliveryStatuses, errors),
    event_type: checkedFilter(request.query, 'event_type', eventTypes as readonly EventType[], errors),
  };
  // A refused filter lists no deliveries; the rest of the page (the webhook, its forms) stays.
  const refused = filtersRefused(errors);
  const deliveries = refused ? { items: [], total: 0 } : await listDeliveries(request.tenant, webhook.id, query, filters, deps);
  const path = `/dashboard/webhooks/${encodeURIComponent(webhook.id)}`;
  return {
    status: refused && status === 200 ? 400 : status,
    page: WebhookPage({
      shell: request.shell,
      webhook,
      deliveries: deliveries.items,
      page: query.page,
      total: deliveries.total,
      totalPages: Math.ceil(deliveries.total / query.perPage),
      filters: shownFilters(filters, request.query, errors),
      filterErrors: errors,
      hrefOf: (n) => listHref(path, request.query, { page: n }),
      etag: entityTagOf(shownByGet(webhook)),
      strandedCutoff: strandedCutoff(deps.clock.now()),
      ...extra,
    }),
  };
};

/** A webhook form's fields as sent, to show again beside its errors. */
export const webhookFields = (form: URLSearchParams): WebhookForm => ({
  url: (form.get('url') ?? '').trim(),
  events: form.getAll('events'),
  description: form.get('description') ?? '',
});

/** Checked by the API's own schemas: the rules of `POST /v1/webhooks`… */
export const newWebhookOf = (fields: WebhookForm) =>
  parseWith(
    createWebhookBody,
    { url: fields.url, events: fields.events, ...(fields.description ? { description: fields.description } : {}) },
    'body',
  );

/**
 * …and of `PATCH /v1/webhooks/{id}` (the form always sends every field). `active` is its checkbox,
 * sent only when the person changed it from what the form showed (`active_shown`): `active: true`
 * re-enables a failed webhook, which saving an edit of one must not do unasked (Re-enable does).
 */
export const webhookChangesOf = (fields: WebhookForm, form: URLSearchParams) => {
  const active = form.get('active') === 'true';
  const shown = form.get('active_shown');
  const changed = shown === null || active !== (shown === 'true');
  return parseWith(
    updateWebhookBody,
    { url: fields.url, events: fields.events, description: fields.description || null, ...(changed ? { active } : {}) },
    'body',
  );
};
