import QRCode from 'qrcode';
import { proposeTotp } from '../../core/users/manage-two-factor';
import type { User } from '../../core/users/user';
import type { Viewer } from '../../pages/layout';
import type { ApiError } from '../../core/errors';
import { statusOf } from '../../http/error-status';
import type { PageResult } from '../../http/pages/page-handler';
import { type TwoFactorForm, type TwoFactorSettingsProps, TwoFactorSettingsPage } from '../../pages/views/two-factor-settings';

/** The settings page for `user`: the status, or (while off) a secret to set up with its QR code. */
export const twoFactorSettingsPage = async (
  user: User,
  viewer: Viewer,
  extra: Partial<Omit<TwoFactorSettingsProps, 'viewer' | 'enabled'>> & { secret?: string } = {},
) => {
  const enabled = user.totp_enabled_at !== null;
  let proposal: TwoFactorSettingsProps['proposal'];
  if (!enabled) {
    const { secret, uri } = extra.secret ? { secret: extra.secret, uri: proposeTotp(user, extra.secret).uri } : proposeTotp(user);
    const svg = await QRCode.toString(uri, { type: 'svg', margin: 1 });
    proposal = { secret, uri, qrDataUri: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}` };
  }
  return TwoFactorSettingsPage({ viewer, enabled, proposal, remainingRecoveryCodes: user.recovery_code_hashes.length, ...extra });
};

/**
 * The page again after one of its forms was refused (a wrong code or password, or too many tries):
 * the error beside the field it is about, with its status and `Retry-After` when it must wait.
 */
export const refusedTwoFactorForm = async (
  user: User,
  viewer: Viewer,
  form: TwoFactorForm,
  error: ApiError,
  extra: { secret?: string } = {},
): Promise<PageResult> => {
  const field = error.details && 'field' in error.details ? String(error.details.field) : '';
  return {
    page: await twoFactorSettingsPage(user, viewer, { error: error.message, errorAt: { form, field }, ...extra }),
    status: statusOf(error),
    headers: error.headers,
  };
};
