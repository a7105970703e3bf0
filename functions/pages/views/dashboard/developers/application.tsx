import type { OAuthClientView } from '../../../../core/oauth/client';
import type { Shell } from '../../../dashboard-shell';
import { Layout } from '../../../layout';
import { Alert, ErrorSummary } from '../../../parts/alert';
import { Button } from '../../../parts/button';
import { Card } from '../../../parts/card';
import { PostForm } from '../../../parts/post-form';
import { TextField } from '../../../parts/text-field';
import { Time } from '../../../parts/time';
import { RedirectUrisField } from './applications';

/** The edit form as sent (or as stored, before the first edit). */
export interface ApplicationSettingsForm {
  name: string;
  redirect_uris: string;
}

export interface ApplicationPageProps {
  shell: Shell;
  application: OAuthClientView;
  notice?: string;
  errors?: string[];
  /** The issues of the form by field, shown beside each field. */
  fieldErrors?: Record<string, string>;
  form?: ApplicationSettingsForm;
}

/** An application's details and, for admins, the form that edits its name and redirect URIs. */
export const ApplicationPage = (props: ApplicationPageProps) => {
  const { shell, application } = props;
  const form = props.form ?? { name: application.name, redirect_uris: application.redirect_uris.join('\n') };
  return (
    <Layout title={application.name} shell={shell}>
      <p>
        <a href="/dashboard/developers/applications">All applications</a>
      </p>
      <h1>{application.name}</h1>
      {props.notice && <Alert kind="success">{props.notice}</Alert>}
      <Card>
        <ul className="plain-list">
          <li>
            Client id: <code>{application.id}</code>
          </li>
          <li>Type: {application.type === 'public' ? 'public (no secret; PKCE required)' : 'confidential'}</li>
          <li>
            Client secret:{' '}
            {application.secret_hint ? (
              <>
                <code>{application.secret_hint}</code>, created <Time iso={application.secret_created_at} />
              </>
            ) : (
              <span className="muted">none</span>
            )}
          </li>
          <li>
            Redirect URIs:
            <ul className="plain-list">
              {application.redirect_uris.map((uri) => (
                <li key={uri}>
                  <code className="break">{uri}</code>
                </li>
              ))}
            </ul>
          </li>
          <li>
            Registered <Time iso={application.created_at} />, last changed <Time iso={application.updated_at} />
          </li>
        </ul>
      </Card>
      <Card>
        <h2>Edit</h2>
        {shell.role === 'admin' ? (
          <>
            <p className="muted">
              A redirect URI taken off is refused from the next authorization request on. The client id and secret stay as they are.
            </p>
            <ErrorSummary messages={props.errors ?? []} />
            <PostForm
              action={`/dashboard/developers/applications/${encodeURIComponent(application.id)}`}
              csrfToken={shell.viewer.csrfToken}
              label={`Edit ${application.name}`}
            >
              <TextField label="Name" name="name" value={form.name} required maxLength={100} error={props.fieldErrors?.name} />
              <RedirectUrisField value={form.redirect_uris} error={props.fieldErrors?.redirect_uris} />
              <div className="actions">
                <Button>Save changes</Button>
              </div>
            </PostForm>
          </>
        ) : (
          <p className="muted">Only an admin of the account can edit an application.</p>
        )}
      </Card>
    </Layout>
  );
};
