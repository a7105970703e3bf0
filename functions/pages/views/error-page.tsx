import { Layout } from '../layout';
import { Alert } from '../parts/alert';
import { Card } from '../parts/card';

/** What went wrong, in words, with the request id to quote to support; never internals. */
export const ErrorPage = (props: { title: string; message: string; requestId?: string }) => (
  <Layout title={props.title} narrow>
    <Card>
      <h1>{props.title}</h1>
      <Alert kind="error">
        <p>{props.message}</p>
      </Alert>
      {props.requestId && (
        <p className="muted">
          Request id: <code>{props.requestId}</code>
        </p>
      )}
      <p>
        <a href="/dashboard">Go to the dashboard</a>
      </p>
    </Card>
  </Layout>
);
