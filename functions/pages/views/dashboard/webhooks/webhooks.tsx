import { eventTypes } from '../../../../core/events/event-types';
import type { WebhookView } from '../../../../core/webhooks/webhook';
import type { Shell } from '../../../dashboard-shell';
import { Layout } from '../../../layout';
import { Alert } from '../../../parts/alert';
import { Card } from '../../../parts/card';
import { CheckboxGroup } from '../../../parts/choice-fields';
import { FormCard } from '../../../parts/form-card';
import { emptyList, RefusedFilterAlert } from '../../../parts/list-filters';
import { OneTimeSecret } from '../../../parts/one-time-secret';
import { type Paged, Pagination } from '../../../parts/pagination';
import { RecordTable } from '../../../parts/record-table';
import { StatusBadge } from '../../../parts/status-badge';
import { TextField } from '../../../parts/text-field';
import { Time } from '../../../parts/time';

export interface WebhookForm {
  url: string;
  events: string[];
  description: string;
}

export const eventOptions = [
  { value: '*', label: '*', description: 'Every event type, present and future' },
  ...eventTypes.map((type) => ({ value: type, label: type })),
];

/** The fields of a webhook, for creating and editing alike. */
/** The webhook's fields; `errors`, what is wrong with each, shown beside it. */
export const WebhookFields = ({ form, errors = {} }: { form: WebhookForm; errors?: Record<string, string> }) => (
  <>
    <TextField
      label="Endpoint URL"
      name="url"
      type="url"
      value={form.url}
      required
      maxLength={2048}
      hint="Where events are POSTed: https in live mode."
      error={errors.url}
    />
    <TextField label="Description" name="description" value={form.description} maxLength={500} error={errors.description} />
    <CheckboxGroup legend="Events" name="events" options={eventOptions} checked={form.events} columns />
  </>
);

export const webhookState = (webhook: WebhookView): 'failed' | 'inactive' | 'enabled' =>
  webhook.status === 'failed' ? 'failed' : webhook.active ? 'enabled' : 'inactive';

export interface WebhooksPageProps extends Paged {
  shell: Shell;
  webhooks: WebhookView[];
  status?: 'enabled' | 'failed';
  /** What is wrong with a refused `status` (400): said above the list, and nothing listed. */
  filterErrors?: Record<string, string>;
  created?: { webhook: WebhookView; secret: string };
  notice?: string;
  errors?: string[];
  fieldErrors?: Record<string, string>;
  form?: WebhookForm;
}

/** The form's fields filled from a webhook as it is stored. */
export const webhookFormOf = (webhook: Pick<WebhookView, 'url' | 'events' | 'description'>): WebhookForm => ({
  url: webhook.url,
  events: webhook.events,
  description: webhook.description ?? '',
});

/** How the webhook form's fields are named in a summary of its errors. */
export const webhookFieldLabels = { url: 'Endpoint URL', description: 'Description', events: 'Events' };

export const WebhooksPage = (props: WebhooksPageProps) => {
  const { shell } = props;
  const form = props.form ?? { url: '', events: ['*'], description: '' };
  return (
    <Layout title="Webhooks" shell={shell}>
      <h1>Webhooks</h1>
      {props.notice && <Alert kind="success">{props.notice}</Alert>}
      {props.created && (
        <Card>
          <OneTimeSecret id="new-webhook-secret" label="Signing secret of the new webhook" value={props.created.secret}>
            <p>
              Verify the <code>X-Service-Signature</code> header of every delivery with it.{' '}
              <a href={`/dashboard/webhooks/${encodeURIComponent(props.created.webhook.id)}`}>Open the webhook</a>
            </p>
          </OneTimeSecret>
        </Card>
      )}
      <Card>
        <div className="card-head">
          <h2>Endpoints</h2>
          <nav aria-label="Filter webhooks" className="filters">
            <a href="/dashboard/webhooks" aria-current={props.status === undefined ? 'page' : undefined}>
              All
            </a>
            <a href="/dashboard/webhooks?status=failed" aria-current={props.status === 'failed' ? 'page' : undefined}>
              Failed
            </a>
            <a href="/dashboard/webhooks?status=enabled" aria-current={props.status === 'enabled' ? 'page' : undefined}>
              Enabled
            </a>
          </nav>
        </div>
        <RefusedFilterAlert
          errors={props.filterErrors}
          fix={`Status ${props.filterErrors?.status ?? ''}: choose All, Failed or Enabled above.`}
        />
        <RecordTable
          caption="Webhook endpoints, failed ones marked"
          headings={['Endpoint', 'Status', 'Events', 'Created']}
          records={props.webhooks}
          empty={emptyList(
            props.filterErrors,
            props.status ? `No ${props.status} webhooks.` : `No webhooks in ${shell.mode} mode yet. Add one below.`,
          )}
          row={(webhook) => {
            const state = webhookState(webhook);
            return (
              <tr key={webhook.id} className={state === 'failed' ? 'row--failed' : undefined}>
                <th scope="row">
                  <a href={`/dashboard/webhooks/${encodeURIComponent(webhook.id)}`}>{webhook.url}</a>
                  {webhook.description && <div className="muted small">{webhook.description}</div>}
                </th>
                <td>
                  <StatusBadge status={state} />
                  {state === 'failed' && (
                    <div className="small">
                      since <Time iso={webhook.failed_at} />
                    </div>
                  )}
                </td>
                <td>{webhook.events.includes('*') ? 'All events' : `${webhook.events.length} types`}</td>
                <td>
                  <Time iso={webhook.created_at} />
                </td>
              </tr>
            );
          }}
        />
        <Pagination {...props} />
      </Card>
      {shell.role === 'admin' && (
        <FormCard
          once
          title="Add an endpoint"
          action="/dashboard/webhooks"
          csrfToken={shell.viewer.csrfToken}
          errors={props.errors}
          submit="Create"
        >
          <WebhookFields form={form} errors={props.fieldErrors} />
        </FormCard>
      )}
    </Layout>
  );
};
