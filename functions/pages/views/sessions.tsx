import type { SessionView } from '../../core/sessions/session';
import { Layout, type Viewer } from '../layout';
import { Alert } from '../parts/alert';
import { Button } from '../parts/button';
import { Card } from '../parts/card';
import { PostForm } from '../parts/post-form';
import { TableScroll } from '../parts/table-scroll';
import { Time } from '../parts/time';

export const SessionsPage = (props: { viewer: Viewer; sessions: SessionView[]; notice?: string }) => (
  <Layout title="Your sessions" viewer={props.viewer}>
    <Card>
      <h1>Your sessions</h1>
      {props.notice && <Alert kind="success">{props.notice}</Alert>}
      <p>Every browser where you are signed in. A session ends after 12 hours without use, and after 7 days in any case.</p>
      <TableScroll label="Signed-in sessions">
        <table className="table">
          <caption className="muted">Signed-in sessions, most recently used first</caption>
          <thead>
            <tr>
              <th scope="col">Browser</th>
              <th scope="col">Address</th>
              <th scope="col">Signed in</th>
              <th scope="col">Last used</th>
              <th scope="col">
                <span className="muted">Action</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {props.sessions.map((session) => (
              <tr key={session.id}>
                <td>
                  {session.user_agent ?? 'unknown'} {session.current && <span className="badge badge--ok">this browser</span>}
                </td>
                <td>{session.ip ?? 'unknown'}</td>
                <td>
                  <Time iso={session.created_at} />
                </td>
                <td>
                  <Time iso={session.last_seen_at} />
                </td>
                <td>
                  {!session.current && (
                    <PostForm action="/dashboard/sessions/sign-out" csrfToken={props.viewer.csrfToken} className="inline-form">
                      <input type="hidden" name="session_id" value={session.id} />
                      <Button variant="secondary">Sign out this session</Button>
                    </PostForm>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      {props.sessions.some((s) => !s.current) && (
        <PostForm action="/dashboard/sessions/sign-out" csrfToken={props.viewer.csrfToken}>
          <input type="hidden" name="session_id" value="others" />
          <div className="actions">
            <Button variant="danger">Sign out everywhere else</Button>
          </div>
        </PostForm>
      )}
    </Card>
  </Layout>
);
