import type { Shell } from '../../dashboard-shell';
import { Layout } from '../../layout';
import { Alert } from '../../parts/alert';
import { Card } from '../../parts/card';

/**
 * What an action refused (a finding no longer open, a viewer's click on an admin's button), inside
 * the dashboard's navigation, with the way back to the page the action belongs to.
 */
export const ActionFailedPage = (props: { shell: Shell; message: string; requestId: string; back: string }) => (
  <Layout title="That did not work" shell={props.shell}>
    <Card>
      <h1>That did not work</h1>
      <Alert kind="error">
        <p>{props.message}</p>
      </Alert>
      <p className="muted">
        Request id: <code>{props.requestId}</code>
      </p>
      <p>
        <a href={props.back}>Back to the page</a>
      </p>
    </Card>
  </Layout>
);
