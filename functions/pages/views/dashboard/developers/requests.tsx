import {
  type ApiRequestFilters,
  type ApiRequestRecord,
  requestMethods,
  requestPageSizes,
  statusClasses,
} from '../../../../core/requests/api-requests';
import { Alert, Button, Card, ErrorSummary } from '../../../components';
import { Duration, Empty, SelectField, Time } from '../../../dashboard-components';
import type { Shell } from '../../../dashboard-shell';
import { Layout } from '../../../layout';

export interface RequestsPageProps {
  shell: Shell;
  requests: ApiRequestRecord[];
  /** What the form shows: the filters as given (even refused ones, so they can be corrected). */
  form: Record<keyof ApiRequestFilters | 'per_page', string>;
  problems: string[];
  /** The log could not be read just now (Logs Insights did not answer in time). */
  unavailable?: boolean;
  hrefOf(changes: Record<string, string | undefined>): string;
}

const any = { value: '', label: 'Any' };

const statusTone = (status: number): string => (status >= 500 ? 'danger' : status >= 400 ? 'warn' : status >= 300 ? 'info' : 'ok');

const TextFilter = (props: { label: string; name: string; value: string; placeholder: string }) => (
  <div className="field">
    <label for={`field-${props.name}`}>{props.label}</label>
    <input id={`field-${props.name}`} name={props.name} value={props.value} placeholder={props.placeholder} maxLength={200} />
  </div>
);

export const RequestsPage = (props: RequestsPageProps) => (
  <Layout title="Requests" shell={props.shell}>
    <h1>Requests</h1>
    <p className="muted">
      This account's recent API requests in {props.shell.mode} mode, newest first, read from the API's own log (the last 7 days). Requests
      whose credential was not accepted belong to no account and are not listed.
    </p>
    <ErrorSummary messages={props.problems} />
    {props.unavailable && (
      <Alert kind="error" title="The request log could not be read just now.">
        <p>Try again in a moment.</p>
      </Alert>
    )}
    <Card>
      <form method="get" action="/dashboard/developers/requests" className="filters-form" aria-label="Filter requests">
        <SelectField
          label="Method"
          name="method"
          value={props.form.method}
          options={[any, ...requestMethods.map((m) => ({ value: m, label: m }))]}
        />
        <SelectField
          label="Status"
          name="status_class"
          value={props.form.status_class}
          options={[any, ...statusClasses.map((s) => ({ value: s, label: s }))]}
        />
        <TextFilter label="Path prefix" name="path_prefix" value={props.form.path_prefix} placeholder="/v1/projects" />
        <TextFilter label="Credential id" name="credential_id" value={props.form.credential_id} placeholder="key_…" />
        <SelectField
          label="Per page"
          name="per_page"
          value={props.form.per_page}
          options={requestPageSizes.map((n) => ({ value: String(n), label: String(n) }))}
        />
        <Button variant="secondary">Filter</Button>
      </form>
      {props.requests.length === 0 ? (
        <Empty>No requests match.</Empty>
      ) : (
        <table className="table table--compact">
          <caption className="visually-hidden">API requests, newest first</caption>
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Method</th>
              <th scope="col">Path</th>
              <th scope="col">Status</th>
              <th scope="col">Duration</th>
              <th scope="col">Credential</th>
              <th scope="col">Request id</th>
            </tr>
          </thead>
          <tbody>
            {props.requests.map((r) => (
              <tr key={r.request_id}>
                <td>
                  <Time iso={r.at} />
                </td>
                <td>
                  <code>{r.method}</code>
                </td>
                <th scope="row" className="break">
                  <code>{r.path}</code>
                </th>
                <td>
                  <span className={`badge badge--${statusTone(r.status)}`}>{r.status}</span>
                </td>
                <td>
                  <Duration ms={r.duration_ms} />
                </td>
                <td>
                  <a href={props.hrefOf({ credential_id: r.credential_id })} title={`Only requests of ${r.credential_id}`}>
                    <code>{r.credential_hint}</code>
                  </a>
                </td>
                <td className="small">
                  <code>{r.request_id}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Card>
  </Layout>
);
