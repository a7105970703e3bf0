import { Layout } from '../layout';
import { ErrorSummary } from '../parts/alert';
import { Button } from '../parts/button';
import { Card } from '../parts/card';
import { PostForm } from '../parts/post-form';
import { TextField } from '../parts/text-field';

/** Where a one-time link leads: choose a password (first one, or a reset). */
export const SetPasswordPage = (props: { csrfToken: string; token: string; email: string; firstPassword: boolean; error?: string }) => (
  <Layout title={props.firstPassword ? 'Set your password' : 'Choose a new password'} narrow>
    <Card>
      <h1>{props.firstPassword ? 'Set your password' : 'Choose a new password'}</h1>
      <p>
        For <strong>{props.email}</strong>. At least 10 characters; not one of the common passwords.
      </p>
      <ErrorSummary messages={props.error ? [props.error] : []} />
      <PostForm action="/dashboard/set-password" csrfToken={props.csrfToken}>
        <input type="hidden" name="token" value={props.token} />
        <input type="hidden" name="username" value={props.email} autoComplete="username" />
        <TextField
          label="New password"
          name="password"
          type="password"
          autoComplete="new-password"
          required
          autoFocus
          error={props.error}
          hint="10 characters or more. A passphrase of a few words works well."
        />
        <div className="actions">
          <Button>{props.firstPassword ? 'Set password and sign in' : 'Save the new password'}</Button>
        </div>
      </PostForm>
    </Card>
  </Layout>
);
