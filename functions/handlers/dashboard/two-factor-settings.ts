import { pageHandler } from '../../http/pages/page-deps';
import { twoFactorSettingsRoute } from '../../routes/dashboard';
import { twoFactorSettingsPage } from './two-factor-view';

const notices: Record<string, string> = { disabled: 'Two-factor sign-in is off.' };

export const handler = pageHandler(twoFactorSettingsRoute, 'signed_in', async ({ signedIn, query }) => ({
  page: await twoFactorSettingsPage(signedIn!.user, signedIn!.viewer, { notice: notices[query.get('notice') ?? ''] }),
}));
