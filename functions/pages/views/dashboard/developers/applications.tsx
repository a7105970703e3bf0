import type { OAuthClientView } from '../../../../core/oauth/client';
import type { Shell } from '../../../dashboard-shell';
import { Layout } from '../../../layout';
import { Alert } from '../../../parts/alert';
import { Button } from '../../../parts/button';
import { Card } from '../../../parts/card';
import { CodeList } from '../../../parts/code-list';
import { ConfirmForm } from '../../../parts/confirm-form';
import { FormCard } from '../../../parts/form-card';
import { OneTimeSecret } from '../../../parts/one-time-secret';
import { RecordTable } from '../../../parts/record-table';
import { TextField } from '../../../parts/text-field';
import { Time } from '../../../parts/time';

export interface ApplicationForm {
  name: string;
  redirect_uris: string;
  public: boolean;
}

export interface ApplicationsPageProps {
  shell: Shell;
  applications: OAuthClientView[];
  /** Just registered or rotated: the client secret, shown this once. */
  secret?: { application: OAuthClientView; value: string };
  registered?: OAuthClientView;
  notice?: string;
  errors?: string[];
  /** The issues of the registration form by field, shown beside each field. */
  fieldErrors?: Record<string, string>;
  form?: ApplicationForm;
}

/** One redirect URI per line; `error` (an issue of the field) shows beside it. */
export const RedirectUrisField = ({ value, error }: { value: string; error?: string }) => (
  <div className={error ? 'field field--invalid' : 'field'}>
    <label for="field-redirect_uris">Redirect URIs</label>
    <textarea
      id="field-redirect_uris"
      name="redirect_uris"
      rows={3}
      required
      aria-invalid={error ? 'true' : undefined}
      aria-describedby={error ? 'field-redirect_uris-hint field-redirect_uris-error' : 'field-redirect_uris-hint'}
    >
      {value}
    </textarea>
    <div className="field__hint" id="field-redirect_uris-hint">
      One per line, matched exactly: https, or http on 127.0.0.1, [::1] or localhost.
    </div>
    {error && (
      <div className="field__error" id="field-redirect_uris-error">
        {error}
      </div>
    )}
  </div>
);

export const ApplicationsPage = (props: ApplicationsPageProps) => {
  const { shell } = props;
  const admin = shell.role === 'admin';
  const form = props.form ?? { name: '', redirect_uris: '', public: false };
  return (
    <Layout title="Applications" shell={shell}>
      <h1>Applications</h1>
      <p className="muted">
        OAuth applications of this account act for other accounts that authorize them (authorization code flow with PKCE).
      </p>
      {props.notice && <Alert kind="success">{props.notice}</Alert>}
      {props.registered && (
        <Card>
          <h2>{props.registered.name} is registered</h2>
          <p>
            Client id: <code>{props.registered.id}</code>
          </p>
        </Card>
      )}
      {props.secret && (
        <Card>
          <OneTimeSecret id="client-secret" label={`Client secret of ${props.secret.application.name}`} value={props.secret.value} />
        </Card>
      )}
      <Card>
        <RecordTable
          caption="Applications of this account"
          headings={['Name', 'Client id', 'Type', 'Redirect URIs', 'Secret', 'Actions']}
          records={props.applications}
          empty={admin ? 'No applications yet. Register one below.' : 'No applications yet. An admin of the account registers them.'}
          row={(app) => {
            const base = `/dashboard/developers/applications/${encodeURIComponent(app.id)}`;
            return (
              <tr key={app.id}>
                <th scope="row">
                  <a href={base}>{app.name}</a>
                </th>
                <td>
                  <code>{app.id}</code>
                </td>
                <td>{app.type}</td>
                <td className="break">
                  <CodeList values={app.redirect_uris} />
                </td>
                <td>
                  {app.secret_hint ? (
                    <>
                      <code>{app.secret_hint}</code>
                      <div className="small muted">
                        <Time iso={app.secret_created_at} />
                      </div>
                    </>
                  ) : (
                    <span className="muted">none (public: PKCE)</span>
                  )}
                </td>
                <td>
                  {admin && (
                    <div className="row-actions">
                      <a className="button button--secondary" href={base}>
                        Edit<span className="visually-hidden"> {app.name}</span>
                      </a>
                      {app.type === 'confidential' && (
                        <ConfirmForm
                          action={`${base}/rotate-secret`}
                          csrfToken={shell.viewer.csrfToken}
                          confirm={`Rotate the client secret of ${app.name}? The old secret stops working at once.`}
                          label={`Rotate the secret of ${app.name}`}
                          once
                        >
                          <Button variant="secondary">Rotate secret</Button>
                        </ConfirmForm>
                      )}
                      <ConfirmForm
                        action={`${base}/delete`}
                        csrfToken={shell.viewer.csrfToken}
                        confirm={`Delete ${app.name}? Every token it holds stops working.`}
                        label={`Delete ${app.name}`}
                      >
                        <Button variant="danger">Delete</Button>
                      </ConfirmForm>
                    </div>
                  )}
                </td>
              </tr>
            );
          }}
        />
      </Card>
      {admin && (
        <FormCard
          once
          title="Register an application"
          action="/dashboard/developers/applications"
          csrfToken={shell.viewer.csrfToken}
          errors={props.errors}
          submit="Create"
        >
          <TextField label="Name" name="name" value={form.name} required maxLength={100} error={props.fieldErrors?.name} />
          <RedirectUrisField value={form.redirect_uris} error={props.fieldErrors?.redirect_uris} />
          <div className="checkbox">
            <input type="checkbox" id="field-public" name="public" value="true" checked={form.public} />
            <label for="field-public">Public client (no secret; PKCE required)</label>
          </div>
        </FormCard>
      )}
    </Layout>
  );
};
