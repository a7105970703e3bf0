import { Button } from './button';
import { PostForm } from './post-form';

/** "Sign out", a button that ends the session (a POST with the CSRF token), in the header of every signed-in page. */
export const SignOutForm = ({ csrfToken }: { csrfToken: string }) => (
  <PostForm action="/dashboard/sign-out" csrfToken={csrfToken} className="inline-form">
    <Button variant="link">Sign out</Button>
  </PostForm>
);
