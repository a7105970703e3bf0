import type { Shell } from '../../../functions/pages/dashboard-shell';

/** What the dashboard's layout shows around a page: an admin of `acct_1`, in test mode, at `path`. */
export const adminShell = (path: string): Shell => ({
  viewer: { email: 'admin@example.com', accountId: 'acct_1', csrfToken: 'csrf' },
  accountId: 'acct_1',
  role: 'admin',
  mode: 'test',
  path,
  here: path,
});
