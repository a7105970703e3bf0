import type { Viewer } from '../layout';
import { MessagePage } from './message-page';

/**
 * Allow pressed on a consent page of another account than the session now acts for (switched in
 * another tab): nothing is granted, and the page is offered again for the account acted for now.
 */
export const ConsentAccountChangedPage = (props: { viewer: Viewer; application: string; authorizeUrl: string }) => (
  <MessagePage title="You now act for another account" viewer={props.viewer}>
    <p>
      This page asked you to authorize {props.application} for another account than the one you act for now, so nothing was granted.{' '}
      <a href={props.authorizeUrl}>Reload the authorization page</a> to see what it asks of this account.
    </p>
  </MessagePage>
);
