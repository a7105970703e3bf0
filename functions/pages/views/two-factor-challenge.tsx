import { Layout } from '../layout';
import { ErrorSummary } from '../parts/alert';
import { Button } from '../parts/button';
import { Card } from '../parts/card';
import { PostForm } from '../parts/post-form';
import { TextField } from '../parts/text-field';

export const TwoFactorChallengePage = (props: { csrfToken: string; error?: string; returnTo?: string }) => (
  <Layout title="Two-factor sign-in" narrow>
    <Card>
      <h1>Two-factor sign-in</h1>
      <p>Enter the 6-digit code from your authenticator app, or one of your recovery codes.</p>
      <ErrorSummary messages={props.error ? [props.error] : []} />
      <PostForm action="/dashboard/sign-in/two-factor" csrfToken={props.csrfToken}>
        {props.returnTo && <input type="hidden" name="return_to" value={props.returnTo} />}
        <TextField label="Code" name="code" autoComplete="one-time-code" required autoFocus maxLength={20} />
        <div className="actions">
          <Button>Verify</Button>
        </div>
      </PostForm>
      <PostForm action="/dashboard/sign-out" csrfToken={props.csrfToken}>
        <Button variant="link">Cancel and sign out</Button>
      </PostForm>
    </Card>
  </Layout>
);
