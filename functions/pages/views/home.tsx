import { Card } from '../components';
import { Layout, type Viewer } from '../layout';

/** The dashboard's start page; the dashboard issue fills it with the account's resources. */
export const HomePage = (props: { viewer: Viewer; role: string; accountEmail: string; twoFactor: boolean }) => (
  <Layout title="Dashboard" viewer={props.viewer}>
    <Card>
      <h1>Dashboard</h1>
      <p>
        Signed in as <strong>{props.viewer.email}</strong>, {props.role} of the account <code>{props.viewer.accountId}</code> (
        {props.accountEmail}).
      </p>
      <ul>
        <li>
          <a href="/dashboard/sessions">Your sessions</a>: where you are signed in, and sign out everywhere else.
        </li>
        <li>
          <a href="/dashboard/two-factor">Two-factor sign-in</a>: {props.twoFactor ? 'on' : 'off'}.
        </li>
        <li>
          <a href="/dashboard/accounts">Switch account</a>
        </li>
      </ul>
    </Card>
  </Layout>
);
