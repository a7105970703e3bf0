import { Layout, type Viewer } from '../layout';
import { Button } from '../parts/button';
import { Card } from '../parts/card';
import { PostForm } from '../parts/post-form';

export interface AccountChoice {
  id: string;
  email: string;
  role: string;
}

/** A user of several accounts picks the one to act for. */
export const ChooseAccountPage = (props: { viewer: Viewer; accounts: AccountChoice[]; returnTo?: string }) => (
  <Layout title="Choose an account" viewer={props.viewer} narrow>
    <Card>
      <h1>Choose an account</h1>
      {props.accounts.length === 0 ? (
        <p>You are not a member of any account yet. Ask an admin of your team to add you.</p>
      ) : (
        <>
          <p>
            {props.accounts.length === 1
              ? 'You belong to this one account; another account’s admin can add you to theirs.'
              : 'You belong to several accounts. Which one do you want to act for?'}
          </p>
          <PostForm action="/dashboard/accounts" csrfToken={props.viewer.csrfToken}>
            {props.returnTo && <input type="hidden" name="return_to" value={props.returnTo} />}
            <ul className="scope-list">
              {props.accounts.map((account) => (
                <li key={account.id}>
                  <Button name="account_id" value={account.id} variant="secondary">
                    {`${account.email} (${account.id})`}
                  </Button>{' '}
                  <span className="badge">{account.role}</span>
                </li>
              ))}
            </ul>
          </PostForm>
        </>
      )}
    </Card>
  </Layout>
);
