import type { ComponentChildren } from 'preact';
import type { Shell } from '../dashboard-shell';
import { Layout, type Viewer } from '../layout';
import { Card } from '../parts/card';

/**
 * A page that only tells something (a link that no longer works, a finished step); inside the
 * dashboard's frame (`shell`) when it is about a page of the dashboard.
 */
export const MessagePage = (props: { title: string; viewer?: Viewer; shell?: Shell; children: ComponentChildren }) => (
  <Layout title={props.title} viewer={props.viewer} shell={props.shell} narrow>
    <Card>
      <h1>{props.title}</h1>
      {props.children}
    </Card>
  </Layout>
);
