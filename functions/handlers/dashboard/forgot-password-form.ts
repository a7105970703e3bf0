import { pageHandler } from '../../http/pages/page-deps';
import { ForgotPasswordPage } from '../../pages/views/forgot-password';
import { forgotPasswordFormRoute } from '../../routes/dashboard';

export const handler = pageHandler(forgotPasswordFormRoute, 'public', async ({ csrfToken, query }) => ({
  page: ForgotPasswordPage({ csrfToken, sent: query.get('sent') === '1' }),
}));
