import { renderToString } from 'preact-render-to-string';
import type { DeliveryAttempt, DeliveryView } from '../../../functions/core/webhooks/delivery';
import type { WebhookView } from '../../../functions/core/webhooks/webhook';
import { WebhookPage } from '../../../functions/pages/views/dashboard/webhooks/webhook';
import { deliveryAt } from '../fakes/webhook-repositories';
import { adminShell } from '../fakes/dashboard-shell';

const webhook = {
  id: 'wh_01JD2Q7A0B1C2D3E4F5G6H7J8K',
  url: 'https://hooks.example.com/in',
  events: ['*'],
  active: true,
  status: 'enabled',
  description: null,
  created_at: '2026-11-01T10:00:00.000Z',
  updated_at: '2026-11-01T10:00:00.000Z',
  failed_at: null,
  previous_secret_expires_at: null,
} as unknown as WebhookView;

const attempt = (sequence: number, number: number): DeliveryAttempt => ({
  sequence,
  number,
  attempted_at: '2026-11-01T10:01:00.000Z',
  url: null,
  status_code: 503,
  duration_ms: 20,
  error: 'http_status',
  error_message: 'HTTP 503',
  response_excerpt: '',
});

const delivery = (id: string, changes: Partial<DeliveryView>): DeliveryView => ({
  ...deliveryAt(Date.parse('2026-11-01T10:00:00.000Z')),
  id,
  webhook_id: webhook.id,
  next_attempt_at: null,
  ...changes,
});

const page = (deliveries: DeliveryView[], strandedCutoff?: string) =>
  renderToString(
    WebhookPage({
      shell: adminShell(`/dashboard/webhooks/${webhook.id}`),
      webhook,
      deliveries,
      filters: {},
      page: 1,
      totalPages: 1,
      total: deliveries.length,
      hrefOf: () => '',
      etag: '"tag"',
      strandedCutoff,
    }),
  );

describe("a webhook's delivery log in the dashboard", () => {
  it('offers Retry now for a stranded delivery too (its attempt due before the cutoff and not claimed since), not for one that may still come', () => {
    const cutoff = '2026-11-01T10:30:00.000Z';
    const html = page(
      [
        delivery('dlv_stranded', { next_attempt_at: '2026-11-01T10:00:00.000Z' }),
        delivery('dlv_claimed_long_ago', {
          attempt_count: 1,
          attempt_claimed_at: '2026-11-01T10:01:00.000Z',
          next_attempt_at: '2026-11-01T10:00:00.000Z',
        }),
        delivery('dlv_queued_lately', { next_attempt_at: '2026-11-01T10:40:00.000Z' }),
        delivery('dlv_claimed_lately', {
          attempt_count: 1,
          attempt_claimed_at: '2026-11-01T10:31:00.000Z',
          next_attempt_at: '2026-11-01T10:00:00.000Z',
        }),
      ],
      cutoff,
    );
    expect(html).toContain('aria-label="Retry now dlv_stranded"');
    expect(html).toContain('aria-label="Retry now dlv_claimed_long_ago"');
    expect(html).not.toMatch(/aria-label="(Retry now|Redeliver) dlv_queued_lately"/);
    expect(html).not.toMatch(/aria-label="(Retry now|Redeliver) dlv_claimed_lately"/);
  });

  it('offers Retry now for a delivery waiting for its next attempt, Redeliver for a finished one, nothing while an attempt is on its way', () => {
    const html = page([
      delivery('dlv_waiting', { attempt_count: 1, attempts: [attempt(1, 1)], next_attempt_at: '2026-11-01T10:31:00.000Z' }),
      delivery('dlv_failed', { status: 'failed', attempt_count: 6, attempts: [attempt(1, 6)] }),
      delivery('dlv_in_flight', { attempt_count: 2, attempts: [attempt(1, 1)], attempt_claimed_at: '2026-11-01T10:31:00.000Z' }),
      delivery('dlv_queued', {}),
    ]);
    expect(html).toContain('aria-label="Retry now dlv_waiting"');
    expect(html).toContain('aria-label="Redeliver dlv_failed"');
    expect(html).not.toMatch(/aria-label="(Retry now|Redeliver) dlv_in_flight"/);
    expect(html).not.toMatch(/aria-label="(Retry now|Redeliver) dlv_queued"/);
  });

  it('says where an attempt went when it was not the URL the webhook has now', () => {
    const html = page([
      delivery('dlv_moved', {
        status: 'succeeded',
        attempt_count: 2,
        attempts: [
          { ...attempt(1, 1), url: 'http://127.0.0.1:9/before' },
          { ...attempt(1, 2), url: webhook.url, status_code: 200, error: null, error_message: null },
        ],
      }),
    ]);
    expect(html).toContain('to http://127.0.0.1:9/before</div>');
    expect(html.match(/>to [^<]*<\/div>/g)).toHaveLength(1);
  });
});

describe("a webhook's Recover form in the dashboard", () => {
  const recoverRefused = (changes: Partial<WebhookView>) =>
    renderToString(
      WebhookPage({
        shell: adminShell(`/dashboard/webhooks/${webhook.id}`),
        webhook: { ...webhook, ...changes },
        deliveries: [],
        filters: {},
        page: 1,
        totalPages: 1,
        total: 0,
        hrefOf: () => '',
        etag: '"tag"',
        recover: { since: 'yesterday', error: 'must be a date and time (UTC)' },
      }),
    );

  it.each([
    ['enabled', {}],
    ['paused', { active: false }],
    ['failed', { status: 'failed', failed_at: '2026-11-01T10:05:00.000Z' }],
  ] as const)('shows a refused time beside its field, with what was typed, on a webhook %s meanwhile too', (_, changes) => {
    const html = recoverRefused(changes as Partial<WebhookView>);
    expect(html).toMatch(/<input id="field-since"[^>]*value="yesterday"[^>]*aria-invalid="true"/);
    expect(html).toContain('<div class="field__error" id="field-since-error">must be a date and time (UTC)</div>');
  });
});
