import type { Mode } from '../../core/tenancy';
import type { Shell } from '../dashboard-shell';
import type { Viewer } from '../layout';
import { MessagePage } from './message-page';

interface ShownFor {
  accountId: string;
  mode: Mode;
}

const modeName = (context: ShownFor): string => (context.mode === 'test' ? 'Test mode' : 'Live mode');

/** "the account acct_… in Test mode", as much as the action is bound to. */
const AccountAndMode = ({ context, withMode }: { context: ShownFor; withMode: boolean }) => (
  <>
    the account <code>{context.accountId}</code>
    {withMode && ` in ${modeName(context)}`}
  </>
);

/**
 * A form sent after the session switched account or mode (in another tab) since its page was
 * shown: nothing was done, and the page is offered again for the account and mode acted for now.
 */
export const FormShownElsewherePage = (props: {
  viewer: Viewer;
  /** The dashboard's frame, as acted for now, when the form was one of the dashboard's. */
  shell?: Shell;
  /** Whether the action is bound to the mode too (the dashboard's are; the OAuth consent's, always live, is not). */
  withMode: boolean;
  /** What the form was shown for; absent when its page said nothing of it (a page older than this check). */
  shownFor?: ShownFor;
  now: ShownFor;
  /** The page the form belongs to, to open again. */
  reload: string;
}) => (
  <MessagePage
    title={
      props.shownFor === undefined
        ? 'This form is out of date'
        : props.shownFor.accountId !== props.now.accountId
          ? 'You now act for another account'
          : `You are now in ${modeName(props.now)}`
    }
    viewer={props.viewer}
    shell={props.shell}
  >
    <p>
      {props.shownFor ? (
        <>
          This form was opened for <AccountAndMode context={props.shownFor} withMode={props.withMode} />
        </>
      ) : (
        'This form does not say which account it was opened for'
      )}
      ; you are now acting for <AccountAndMode context={props.now} withMode={props.withMode} />. <strong>Nothing was changed.</strong>
    </p>
    <p>
      <a href={props.reload}>Reload the page</a> to see it for the account and mode you act for now, and send the form from there if you
      still want to.
    </p>
  </MessagePage>
);
