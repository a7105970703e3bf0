import { type Scope, scopeDescriptions } from '../../core/credentials/scopes';
import { Layout, type Viewer } from '../layout';
import { Alert } from '../parts/alert';
import { Button } from '../parts/button';
import { Card } from '../parts/card';
import { PostForm } from '../parts/post-form';

export interface ConsentProps {
  viewer: Viewer;
  application: { name: string; ownerAccountId: string; ownerEmail: string | null };
  /** The account the grant is for (the one the person acts for). */
  accountId: string;
  role: string;
  granted: Scope[];
  withheld: Scope[];
  /** Where the answer goes (host only, for the person to recognise). */
  redirectHost: string;
  /** The authorization request as sent, re-checked when the form comes back. */
  request: string;
}

const ScopeList = ({ scopes, withheld }: { scopes: Scope[]; withheld?: boolean }) => (
  <ul className={withheld ? 'scope-list scope-list--withheld' : 'scope-list'}>
    {scopes.map((scope) => (
      <li key={scope}>
        {scopeDescriptions[scope]} <code>{scope}</code>
      </li>
    ))}
  </ul>
);

/** The application, what it asks for in words, what will not be granted, and the two buttons. */
export const ConsentPage = (props: ConsentProps) => (
  <Layout title={`Authorize ${props.application.name}`} viewer={props.viewer} narrow>
    <Card>
      <h1>Authorize {props.application.name}</h1>
      <p>
        <strong>{props.application.name}</strong> (registered by the account <code>{props.application.ownerAccountId}</code>
        {props.application.ownerEmail && `, ${props.application.ownerEmail}`}) asks to act for the account <code>{props.accountId}</code>.
      </p>
      {props.granted.length > 0 && (
        <>
          <h2>It will be able to</h2>
          <ScopeList scopes={props.granted} />
        </>
      )}
      {props.withheld.length > 0 && (
        <Alert kind="info" title={`Not granted: you are a ${props.role}, who can grant only read access`}>
          <ScopeList scopes={props.withheld} withheld />
        </Alert>
      )}
      <p className="muted">You will be sent back to {props.redirectHost}. You can revoke this access at any time.</p>
      <PostForm action="/oauth/authorize" csrfToken={props.viewer.csrfToken} label="Authorization">
        <input type="hidden" name="request" value={props.request} />
        <div className="actions">
          <Button name="decision" value="allow">
            Allow
          </Button>
          <Button name="decision" value="deny" variant="secondary">
            Deny
          </Button>
        </div>
      </PostForm>
    </Card>
  </Layout>
);
