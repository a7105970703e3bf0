import { Layout, type Viewer } from '../layout';
import { Alert, ErrorSummary } from '../parts/alert';
import { Button } from '../parts/button';
import { Card } from '../parts/card';
import { PostForm } from '../parts/post-form';
import { TextField } from '../parts/text-field';

export interface TwoFactorSettingsProps {
  viewer: Viewer;
  enabled: boolean;
  /** While off: the secret proposed, to enter in an authenticator app. */
  proposal?: { secret: string; uri: string; qrDataUri: string };
  /** Shown once, right after turning it on or making new ones. */
  recoveryCodes?: string[];
  remainingRecoveryCodes?: number;
  error?: string;
  /** The form and field the error is about, to show it beside that field. */
  errorAt?: { form: TwoFactorForm; field: string };
  notice?: string;
}

/** The forms of the page; each one that changes how the person signs in asks for the current password. */
export type TwoFactorForm = 'enable' | 'disable' | 'recovery_codes';

const currentPassword = (props: TwoFactorSettingsProps, form: TwoFactorForm) => (
  <TextField
    label="Current password"
    name="password"
    id={`field-${form}-password`}
    type="password"
    autoComplete="current-password"
    required
    error={props.errorAt?.form === form && props.errorAt.field === 'password' ? props.error : undefined}
  />
);

export const TwoFactorSettingsPage = (props: TwoFactorSettingsProps) => (
  <Layout title="Two-factor sign-in" viewer={props.viewer}>
    <Card>
      <h1>Two-factor sign-in</h1>
      {props.notice && <Alert kind="success">{props.notice}</Alert>}
      <ErrorSummary messages={props.error ? [props.error] : []} />
      {props.recoveryCodes && (
        <Alert kind="info" title="Your recovery codes">
          <p>Each works once, in place of a code from your app. Store them somewhere safe now: they are not shown again.</p>
          <ul className="codes">
            {props.recoveryCodes.map((code) => (
              <li key={code}>{code}</li>
            ))}
          </ul>
        </Alert>
      )}
      {props.enabled ? (
        <>
          <p>
            Two-factor sign-in is <strong>on</strong>. {props.remainingRecoveryCodes ?? 0} recovery codes are left.
          </p>
          <h2>New recovery codes</h2>
          <PostForm action="/dashboard/two-factor/recovery-codes" csrfToken={props.viewer.csrfToken}>
            {currentPassword(props, 'recovery_codes')}
            <div className="actions">
              <Button variant="secondary">Make new recovery codes</Button>
            </div>
          </PostForm>
          <h2>Turn it off</h2>
          <PostForm action="/dashboard/two-factor/disable" csrfToken={props.viewer.csrfToken}>
            {currentPassword(props, 'disable')}
            <div className="actions">
              <Button variant="danger">Turn off two-factor sign-in</Button>
            </div>
          </PostForm>
        </>
      ) : (
        props.proposal && (
          <>
            <p>
              Two-factor sign-in is <strong>off</strong>. Turn it on: scan this code with an authenticator app (or type the secret in), then
              enter the 6-digit code it shows.
            </p>
            <img className="qr" alt="QR code of the authenticator secret" src={props.proposal.qrDataUri} />
            <p>
              Secret: <span className="secret">{props.proposal.secret}</span>
            </p>
            <PostForm action="/dashboard/two-factor/enable" csrfToken={props.viewer.csrfToken}>
              <input type="hidden" name="secret" value={props.proposal.secret} />
              <TextField
                label="Code"
                name="code"
                autoComplete="one-time-code"
                inputMode="numeric"
                required
                maxLength={6}
                error={props.errorAt?.form === 'enable' && props.errorAt.field === 'code' ? props.error : undefined}
              />
              {currentPassword(props, 'enable')}
              <div className="actions">
                <Button>Turn on two-factor sign-in</Button>
              </div>
            </PostForm>
          </>
        )
      )}
    </Card>
  </Layout>
);
