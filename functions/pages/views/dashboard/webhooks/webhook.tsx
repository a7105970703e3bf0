import { eventTypes } from '../../../../core/events/event-types';
import { type DeliveryStatus, type DeliveryView, stranded, waitingForRetry } from '../../../../core/webhooks/delivery';
import type { WebhookView } from '../../../../core/webhooks/webhook';
import type { Shell } from '../../../dashboard-shell';
import { Layout } from '../../../layout';
import { Alert } from '../../../parts/alert';
import { Button } from '../../../parts/button';
import { Card } from '../../../parts/card';
import { SelectField } from '../../../parts/choice-fields';
import { ConfirmForm } from '../../../parts/confirm-form';
import { Empty } from '../../../parts/empty';
import { FormCard } from '../../../parts/form-card';
import { ChoiceFilter, emptyList, FilterForm } from '../../../parts/list-filters';
import { OneTimeSecret } from '../../../parts/one-time-secret';
import { type Paged, Pagination } from '../../../parts/pagination';
import { PostForm } from '../../../parts/post-form';
import { RecordTable } from '../../../parts/record-table';
import { StatusBadge } from '../../../parts/status-badge';
import { TextField } from '../../../parts/text-field';
import { Duration, Time } from '../../../parts/time';
import { type WebhookForm, WebhookFields, webhookFormOf, webhookState } from './webhooks';
import { Excerpt } from '../../../parts/excerpt';
import { OriginalValues } from '../../../parts/original-values';

export const deliveryStatuses: DeliveryStatus[] = ['pending', 'succeeded', 'failed', 'skipped'];

export interface WebhookPageProps extends Paged {
  shell: Shell;
  webhook: WebhookView;
  deliveries: DeliveryView[];
  filters: { status?: string; event_type?: string };
  /** What is wrong with each refused delivery filter (400): shown beside it, and nothing listed. */
  filterErrors?: Record<string, string>;
  secret?: string;
  notice?: string;
  testDelivery?: DeliveryView;
  errors?: string[];
  form?: WebhookForm;
  fieldErrors?: Record<string, string>;
  /** What the edit form was first filled from (sent back by it), when it is shown again; else the webhook's values. */
  original?: object;
  /** The `ETag` of the webhook the edit form was filled from: the save is made only while it is current. */
  etag: string;
  /** A Recover refused: the time as typed and why, shown beside its field. */
  recover?: { since: string; error: string };
  /** `strandedCutoff` as the page was built: a pending delivery stranded by it is offered **Retry now** too. */
  strandedCutoff?: string;
}

/** `url`: the webhook's; an attempt sent to another (before a change of it) says where it went. */
const Attempts = ({ delivery, url }: { delivery: DeliveryView; url: string }) =>
  delivery.attempts.length === 0 ? (
    <p className="muted">No attempt yet.</p>
  ) : (
    <RecordTable
      className="table table--compact"
      caption={`Attempts of ${delivery.id}`}
      headings={['Attempt', 'When', 'Status code', 'Duration', 'Error', 'Response']}
      records={delivery.attempts}
      row={(attempt) => (
        <tr key={`${attempt.sequence}-${attempt.number}`}>
          <td>
            {attempt.number}
            {attempt.sequence > 1 && <span className="muted"> (run {attempt.sequence})</span>}
          </td>
          <td>
            <Time iso={attempt.attempted_at} />
            {attempt.url !== null && attempt.url !== url && <div className="small break">to {attempt.url}</div>}
          </td>
          <td>{attempt.status_code ?? <span className="muted">none</span>}</td>
          <td>
            <Duration ms={attempt.duration_ms} />
          </td>
          <td>
            {attempt.error ? (
              <>
                <code>{attempt.error}</code>
                {attempt.error_message && <div className="small">{attempt.error_message}</div>}
              </>
            ) : (
              <span className="muted">none</span>
            )}
          </td>
          <td>
            {attempt.response_excerpt ? (
              <Excerpt label={`Response to attempt ${attempt.number}`}>{attempt.response_excerpt}</Excerpt>
            ) : (
              <span className="muted">empty</span>
            )}
          </td>
        </tr>
      )}
    />
  );

export const WebhookPage = (props: WebhookPageProps) => {
  const { shell, webhook } = props;
  const state = webhookState(webhook);
  const base = `/dashboard/webhooks/${encodeURIComponent(webhook.id)}`;
  const csrf = shell.viewer.csrfToken;
  // Viewers read; the server refuses them every action (403), so the page offers none.
  const admin = shell.role === 'admin';
  const stored = webhookFormOf(webhook);
  const form = props.form ?? stored;
  return (
    <Layout title={`Webhook ${webhook.url}`} shell={shell}>
      <p>
        <a href="/dashboard/webhooks">All webhooks</a>
      </p>
      <h1>
        Webhook <span className="break">{webhook.url}</span>
      </h1>
      <p>
        <StatusBadge status={state} /> <code>{webhook.id}</code> · created <Time iso={webhook.created_at} />
      </p>
      {props.notice && <Alert kind="success">{props.notice}</Alert>}
      {state === 'failed' && (
        <Alert kind="error" title="This webhook has failed">
          <p>
            A delivery exhausted all six attempts <Time iso={webhook.failed_at} />, so new events are not sent until you re-enable it.
            Events meanwhile are kept as skipped deliveries: re-enable, then recover them.
          </p>
          {admin ? (
            <PostForm action={`${base}/re-enable`} csrfToken={csrf} className="inline-form">
              <Button>Re-enable</Button>
            </PostForm>
          ) : (
            <p>An admin of the account can re-enable it.</p>
          )}
        </Alert>
      )}
      {props.secret && (
        <Card>
          <OneTimeSecret id="webhook-secret" label="New signing secret" value={props.secret}>
            {webhook.previous_secret_expires_at && (
              <p>
                The previous secret keeps signing beside it until <Time iso={webhook.previous_secret_expires_at} />.
              </p>
            )}
          </OneTimeSecret>
        </Card>
      )}
      {props.testDelivery && (
        <Alert
          kind={props.testDelivery.status === 'succeeded' ? 'success' : 'error'}
          outcome
          title={`Test event ${props.testDelivery.status}`}
        >
          <Attempts delivery={props.testDelivery} url={webhook.url} />
        </Alert>
      )}
      {admin && (
        <div className="grid-2">
          <Card>
            <h2>Send a test event</h2>
            <PostForm action={`${base}/test`} csrfToken={csrf} label="Send a test event">
              <SelectField label="Event type" name="type" options={eventTypes.map((t) => ({ value: t, label: t }))} />
              <Button variant="secondary">Send test event</Button>
            </PostForm>
          </Card>
          {/* Offered while enabled; and shown with its refused time when the webhook was paused or failed meanwhile, so the error is seen. */}
          {(state === 'enabled' || props.recover) && (
            <Card>
              <h2>Recover</h2>
              <p className="muted">Queues again every failed and skipped delivery created since then, oldest first.</p>
              <PostForm action={`${base}/recover`} csrfToken={csrf} label="Recover missed deliveries">
                <TextField
                  label="Since (UTC)"
                  name="since"
                  type="datetime-local"
                  step="1"
                  required
                  value={props.recover?.since}
                  error={props.recover?.error}
                />
                <Button variant="secondary">Recover</Button>
              </PostForm>
            </Card>
          )}
          <Card>
            <h2>Signing secret</h2>
            <p className="muted">A new secret; the old one keeps signing beside it for 24 hours, so receivers can move over.</p>
            <ConfirmForm
              action={`${base}/rotate-secret`}
              csrfToken={csrf}
              confirm="Rotate the signing secret? The new one is shown once; the old one signs beside it for 24 hours."
              once
            >
              <Button variant="secondary">Rotate secret</Button>
            </ConfirmForm>
          </Card>
          <Card>
            <h2>Delete</h2>
            <p className="muted">The endpoint receives nothing more; its delivery log goes with it.</p>
            <ConfirmForm action={`${base}/delete`} csrfToken={csrf} confirm={`Delete the webhook ${webhook.url}?`}>
              <Button variant="danger">Delete</Button>
            </ConfirmForm>
          </Card>
        </div>
      )}
      <Card>
        <h2>Delivery log</h2>
        <FilterForm action={base} label="Filter deliveries" errors={props.filterErrors}>
          <ChoiceFilter
            label="Status"
            name="status"
            value={props.filters.status}
            values={deliveryStatuses}
            error={props.filterErrors?.status}
          />
          <ChoiceFilter
            label="Event type"
            name="event_type"
            value={props.filters.event_type}
            values={eventTypes}
            error={props.filterErrors?.event_type}
          />
        </FilterForm>
        {props.deliveries.length === 0 ? (
          <Empty>{emptyList(props.filterErrors, 'No deliveries match.')}</Empty>
        ) : (
          <ul className="deliveries">
            {props.deliveries.map((delivery) => (
              <li key={delivery.id} className={delivery.status === 'failed' ? 'delivery delivery--failed' : 'delivery'}>
                <div className="delivery__head">
                  <StatusBadge status={delivery.status} /> <code>{delivery.event_type}</code>{' '}
                  {delivery.test && <span className="badge">test</span>} <span className="muted small">{delivery.id}</span>{' '}
                  <Time iso={delivery.created_at} />
                  {delivery.next_attempt_at && (
                    <span className="small">
                      {' '}
                      · next attempt <Time iso={delivery.next_attempt_at} />
                    </span>
                  )}
                </div>
                {admin &&
                  state === 'enabled' &&
                  !delivery.test &&
                  (delivery.status !== 'pending' ||
                    waitingForRetry(delivery) ||
                    (props.strandedCutoff !== undefined && stranded(delivery, props.strandedCutoff))) && (
                    <PostForm
                      action={`${base}/deliveries/${encodeURIComponent(delivery.id)}/redeliver`}
                      csrfToken={csrf}
                      className="inline-form"
                      label={`${delivery.status === 'pending' ? 'Retry now' : 'Redeliver'} ${delivery.id}`}
                    >
                      <Button variant="secondary">{delivery.status === 'pending' ? 'Retry now' : 'Redeliver'}</Button>
                    </PostForm>
                  )}
                <details open={delivery.status === 'failed'}>
                  <summary>{delivery.attempts.length === 1 ? '1 attempt' : `${delivery.attempts.length} attempts`}</summary>
                  <Attempts delivery={delivery} url={webhook.url} />
                </details>
              </li>
            ))}
          </ul>
        )}
        <Pagination {...props} />
      </Card>
      {admin && (
        <FormCard title="Edit" label="Edit the webhook" action={base} csrfToken={csrf} errors={props.errors} submit="Save changes">
          <WebhookFields form={form} errors={props.fieldErrors} />
          <input type="hidden" name="etag" value={props.etag} />
          <OriginalValues values={props.original ?? stored} />
          {/* What Active showed: only a change of it is sent, so saving an edit of a failed webhook does not re-enable it. */}
          <input type="hidden" name="active_shown" value={String(webhook.active)} />
          <div className="checkbox">
            <input type="checkbox" id="field-active" name="active" value="true" checked={webhook.active} />
            <label for="field-active">Active</label>
          </div>
        </FormCard>
      )}
    </Layout>
  );
};
