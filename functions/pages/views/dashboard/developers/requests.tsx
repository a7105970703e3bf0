import {
  type ApiRequestFilters,
  type ApiRequestRecord,
  requestMethods,
  requestPageSizes,
  statusClasses,
} from '../../../../core/requests/api-requests';
import type { Shell } from '../../../dashboard-shell';
import { Layout } from '../../../layout';
import { Alert } from '../../../parts/alert';
import { Card } from '../../../parts/card';
import { SelectField } from '../../../parts/choice-fields';
import { ChoiceFilter, emptyList, FilterForm, InputFilter } from '../../../parts/list-filters';
import { RecordTable } from '../../../parts/record-table';
import { Duration, Time } from '../../../parts/time';

export interface RequestsPageProps {
  shell: Shell;
  requests: ApiRequestRecord[];
  /** What the form shows: the filters as given (even refused ones, so they can be corrected). */
  form: Record<keyof ApiRequestFilters | 'per_page', string>;
  /** What is wrong with each refused filter (400): shown beside it, and nothing listed. */
  filterErrors: Record<string, string>;
  /** The log could not be read just now (Logs Insights did not answer in time). */
  unavailable?: boolean;
  hrefOf(changes: Record<string, string | undefined>): string;
}

const statusTone = (status: number): string => (status >= 500 ? 'danger' : status >= 400 ? 'warn' : status >= 300 ? 'info' : 'ok');

export const RequestsPage = (props: RequestsPageProps) => (
  <Layout title="Requests" shell={props.shell}>
    <h1>Requests</h1>
    <p className="muted">
      This account's recent API requests in {props.shell.mode} mode, newest first, read from the API's own log (the last 7 days). Requests
      whose credential was not accepted belong to no account and are not listed.
    </p>
    {props.unavailable && (
      <Alert kind="error" title="The request log could not be read just now.">
        <p>Try again in a moment.</p>
      </Alert>
    )}
    <Card>
      <FilterForm action="/dashboard/developers/requests" label="Filter requests" errors={props.filterErrors}>
        <ChoiceFilter label="Method" name="method" value={props.form.method} values={requestMethods} error={props.filterErrors.method} />
        <ChoiceFilter
          label="Status"
          name="status_class"
          value={props.form.status_class}
          values={statusClasses}
          error={props.filterErrors.status_class}
        />
        <InputFilter
          label="Path prefix"
          name="path_prefix"
          value={props.form.path_prefix}
          placeholder="/v1/projects"
          maxLength={200}
          error={props.filterErrors.path_prefix}
        />
        <InputFilter
          label="Credential id"
          name="credential_id"
          value={props.form.credential_id}
          placeholder="key_…"
          maxLength={200}
          error={props.filterErrors.credential_id}
        />
        <SelectField
          label="Per page"
          name="per_page"
          value={props.form.per_page}
          options={requestPageSizes.map((n) => ({ value: String(n), label: String(n) }))}
          error={props.filterErrors.per_page}
        />
      </FilterForm>
      <RecordTable
        className="table table--compact"
        caption="API requests, newest first"
        headings={['When', 'Method', 'Path', 'Status', 'Duration', 'Credential', 'Request id']}
        records={props.requests}
        empty={emptyList(props.filterErrors, 'No requests match.')}
        row={(r) => (
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
        )}
      />
    </Card>
  </Layout>
);
