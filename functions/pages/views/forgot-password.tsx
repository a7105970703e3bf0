import { Layout } from '../layout';
import { Button } from '../parts/button';
import { Card } from '../parts/card';
import { PostForm } from '../parts/post-form';
import { TextField } from '../parts/text-field';

export const ForgotPasswordPage = (props: { csrfToken: string; sent?: boolean }) => (
  <Layout title="Reset your password" narrow>
    <Card>
      <h1>Reset your password</h1>
      {props.sent ? (
        <div className="alert alert--success" role="status">
          If a user has that e-mail address, we sent it a link to set a new password. The link works once, within one hour.
        </div>
      ) : (
        <p>Enter the e-mail address you sign in with; we will send it a link to set a new password.</p>
      )}
      <PostForm action="/dashboard/forgot-password" csrfToken={props.csrfToken}>
        <TextField label="Email" name="email" type="email" autoComplete="username" required autoFocus />
        <div className="actions">
          <Button>Send the link</Button>
          <a href="/dashboard/sign-in">Back to sign-in</a>
        </div>
      </PostForm>
    </Card>
  </Layout>
);
