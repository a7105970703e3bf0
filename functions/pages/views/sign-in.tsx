import { Layout } from '../layout';
import { ErrorSummary } from '../parts/alert';
import { Button } from '../parts/button';
import { Card } from '../parts/card';
import { PostForm } from '../parts/post-form';
import { TextField } from '../parts/text-field';

export interface SignInProps {
  csrfToken: string;
  email?: string;
  error?: string;
  notice?: string;
  /** Where to go once signed in (kept through the form). */
  returnTo?: string;
  /** The application that asked, when sign-in is a step of an authorization. */
  application?: string;
}

export const SignInPage = (props: SignInProps) => (
  <Layout title="Sign in" narrow>
    <Card>
      <h1>Sign in</h1>
      {props.application && <p>Sign in to continue to {props.application}.</p>}
      {props.notice && (
        <div className="alert alert--info" role="status">
          {props.notice}
        </div>
      )}
      <ErrorSummary messages={props.error ? [props.error] : []} />
      <PostForm action="/dashboard/sign-in" csrfToken={props.csrfToken}>
        {props.returnTo && <input type="hidden" name="return_to" value={props.returnTo} />}
        <TextField label="Email" name="email" type="email" autoComplete="username" value={props.email} required autoFocus={!props.email} />
        <TextField
          label="Password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          autoFocus={Boolean(props.email)}
        />
        <div className="actions">
          <Button>Sign in</Button>
          <a href="/dashboard/forgot-password">Forgot your password?</a>
        </div>
      </PostForm>
    </Card>
  </Layout>
);
