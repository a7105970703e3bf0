import { InvitationUnavailable } from '../../core/users/answer-invitation';
import type { PageResult, SignedIn } from '../../http/pages/page-handler';
import { InvitationUnavailablePage, unavailableStatus } from '../../pages/views/invitation';

/** Runs an invitation's page or answer; an invitation that cannot be answered gets its page saying why. */
export const orUnavailablePage = async (signedIn: SignedIn, answering: boolean, run: () => Promise<PageResult>): Promise<PageResult> => {
  try {
    return await run();
  } catch (error) {
    if (!(error instanceof InvitationUnavailable)) throw error;
    return {
      status: unavailableStatus[error.reason],
      page: InvitationUnavailablePage({
        viewer: signedIn.viewer,
        reason: error.reason,
        answeredAt: error.invitation?.answered_at,
        expiresAt: error.invitation?.expires_at,
        answering,
      }),
    };
  }
};
