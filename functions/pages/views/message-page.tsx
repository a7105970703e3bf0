import type { ComponentChildren } from 'preact';
import { Layout, type Viewer } from '../layout';
import { Card } from '../parts/card';

/** A page that only tells something (a link that no longer works, a finished step). */
export const MessagePage = (props: { title: string; viewer?: Viewer; children: ComponentChildren }) => (
  <Layout title={props.title} viewer={props.viewer} narrow>
    <Card>
      <h1>{props.title}</h1>
      {props.children}
    </Card>
  </Layout>
);
