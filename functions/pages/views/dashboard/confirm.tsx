import type { Shell } from '../../dashboard-shell';
import { Layout } from '../../layout';
import { Button } from '../../parts/button';
import { Card } from '../../parts/card';
import { CsrfField } from '../../parts/post-form';

/**
 * Asks before a destructive action when the script did not (no JavaScript): the same form again,
 * confirmed this time, or back to where it came from.
 */
export const ConfirmPage = (props: { shell: Shell; question: string; action: string; fields: [string, string][]; back: string }) => (
  <Layout title="Confirm" shell={props.shell}>
    <Card>
      <h1>Are you sure?</h1>
      <p>{props.question}</p>
      <form method="post" action={props.action}>
        <CsrfField token={props.shell.viewer.csrfToken} />
        {props.fields
          .filter(([name]) => name !== 'csrf_token' && name !== 'confirmed')
          .map(([name, value]) => (
            <input key={name} type="hidden" name={name} value={value} />
          ))}
        <input type="hidden" name="confirmed" value="yes" />
        <div className="actions">
          <Button variant="danger">Confirm</Button>
          <a href={props.back}>Cancel</a>
        </div>
      </form>
    </Card>
  </Layout>
);
