import { defineWebRoute, type WebRouteDefinition } from './route';

/** The stack of the dashboard's functions (`lib/domain-stack.ts`). */
export const dashboardDomain = 'Dashboard';

/**
 * The dashboard's pages (kind `page`): server-rendered HTML behind a session cookie. A page read
 * (GET) writes only its session's last use, so it gets `session`; an action (POST) gets `write`.
 */
const page = (route: Omit<WebRouteDefinition, 'kind' | 'domain'>): WebRouteDefinition =>
  defineWebRoute({ kind: 'page', domain: dashboardDomain, ...route });

export const dashboardHomeRoute = page({
  operationId: 'dashboardHome',
  summary: 'The dashboard start page',
  method: 'GET',
  path: '/dashboard',
  handler: 'dashboard/home',
  tableAccess: 'session',
});

export const signInFormRoute = page({
  operationId: 'dashboardSignInForm',
  summary: 'Sign-in page',
  method: 'GET',
  path: '/dashboard/sign-in',
  handler: 'dashboard/sign-in-form',
  tableAccess: 'session',
});

export const signInRoute = page({
  operationId: 'dashboardSignIn',
  summary: 'Sign in with e-mail and password',
  method: 'POST',
  path: '/dashboard/sign-in',
  handler: 'dashboard/sign-in',
  tableAccess: 'write',
});

export const twoFactorFormRoute = page({
  operationId: 'dashboardTwoFactorForm',
  summary: 'Second step of sign-in: the code',
  method: 'GET',
  path: '/dashboard/sign-in/two-factor',
  handler: 'dashboard/two-factor-form',
  tableAccess: 'session',
});

export const twoFactorRoute = page({
  operationId: 'dashboardTwoFactor',
  summary: 'Finish sign-in with a TOTP or recovery code',
  method: 'POST',
  path: '/dashboard/sign-in/two-factor',
  handler: 'dashboard/two-factor',
  tableAccess: 'write',
});

export const signOutRoute = page({
  operationId: 'dashboardSignOut',
  summary: 'Sign out: the session ends on the server',
  method: 'POST',
  path: '/dashboard/sign-out',
  handler: 'dashboard/sign-out',
  tableAccess: 'write',
});

export const accountsFormRoute = page({
  operationId: 'dashboardAccountsForm',
  summary: 'Choose the account to act for',
  method: 'GET',
  path: '/dashboard/accounts',
  handler: 'dashboard/accounts-form',
  tableAccess: 'session',
});

export const chooseAccountRoute = page({
  operationId: 'dashboardChooseAccount',
  summary: 'Act for another account',
  method: 'POST',
  path: '/dashboard/accounts',
  handler: 'dashboard/choose-account',
  tableAccess: 'write',
});

export const invitationRoute = page({
  operationId: 'dashboardInvitation',
  summary: 'An invitation to join an account, for the invited person to answer',
  method: 'GET',
  path: '/dashboard/invitations/{id}',
  handler: 'dashboard/invitation',
  tableAccess: 'session',
});

export const acceptInvitationRoute = page({
  operationId: 'dashboardAcceptInvitation',
  summary: 'Accept an invitation: join the account',
  method: 'POST',
  path: '/dashboard/invitations/{id}/accept',
  handler: 'dashboard/invitation-accept',
  tableAccess: 'write',
});

export const declineInvitationRoute = page({
  operationId: 'dashboardDeclineInvitation',
  summary: 'Decline an invitation',
  method: 'POST',
  path: '/dashboard/invitations/{id}/decline',
  handler: 'dashboard/invitation-decline',
  tableAccess: 'write',
});

export const forgotPasswordFormRoute = page({
  operationId: 'dashboardForgotPasswordForm',
  summary: 'Ask for a password reset link',
  method: 'GET',
  path: '/dashboard/forgot-password',
  handler: 'dashboard/forgot-password-form',
  tableAccess: 'session',
});

export const forgotPasswordRoute = page({
  operationId: 'dashboardForgotPassword',
  summary: 'E-mail a password reset link',
  method: 'POST',
  path: '/dashboard/forgot-password',
  handler: 'dashboard/forgot-password',
  tableAccess: 'write',
});

export const setPasswordFormRoute = page({
  operationId: 'dashboardSetPasswordForm',
  summary: 'Where a one-time link leads: choose a password',
  method: 'GET',
  path: '/dashboard/set-password',
  handler: 'dashboard/set-password-form',
  tableAccess: 'session',
});

export const setPasswordRoute = page({
  operationId: 'dashboardSetPassword',
  summary: 'Set a password through a one-time link',
  method: 'POST',
  path: '/dashboard/set-password',
  handler: 'dashboard/set-password',
  tableAccess: 'write',
});

export const sessionsRoute = page({
  operationId: 'dashboardSessions',
  summary: "The signed-in person's sessions",
  method: 'GET',
  path: '/dashboard/sessions',
  handler: 'dashboard/sessions',
  tableAccess: 'session',
});

export const sessionsSignOutRoute = page({
  operationId: 'dashboardSessionsSignOut',
  summary: 'End one other session, or every other one',
  method: 'POST',
  path: '/dashboard/sessions/sign-out',
  handler: 'dashboard/sessions-sign-out',
  tableAccess: 'write',
});

export const twoFactorSettingsRoute = page({
  operationId: 'dashboardTwoFactorSettings',
  summary: 'Two-factor sign-in: status and set-up',
  method: 'GET',
  path: '/dashboard/two-factor',
  handler: 'dashboard/two-factor-settings',
  tableAccess: 'session',
});

export const enableTwoFactorRoute = page({
  operationId: 'dashboardEnableTwoFactor',
  summary: 'Turn two-factor sign-in on',
  method: 'POST',
  path: '/dashboard/two-factor/enable',
  handler: 'dashboard/two-factor-enable',
  tableAccess: 'write',
});

export const disableTwoFactorRoute = page({
  operationId: 'dashboardDisableTwoFactor',
  summary: 'Turn two-factor sign-in off',
  method: 'POST',
  path: '/dashboard/two-factor/disable',
  handler: 'dashboard/two-factor-disable',
  tableAccess: 'write',
});

export const recoveryCodesRoute = page({
  operationId: 'dashboardRecoveryCodes',
  summary: 'Replace the recovery codes',
  method: 'POST',
  path: '/dashboard/two-factor/recovery-codes',
  handler: 'dashboard/recovery-codes',
  tableAccess: 'write',
});

export const dashboardAssetRoute = page({
  operationId: 'dashboardAsset',
  summary: "The dashboard's stylesheet, under its content hash",
  method: 'GET',
  path: '/dashboard/assets/{file}',
  handler: 'dashboard/asset',
  tableAccess: 'none',
});

export const dashboardRoutes: WebRouteDefinition[] = [
  dashboardHomeRoute,
  signInFormRoute,
  signInRoute,
  twoFactorFormRoute,
  twoFactorRoute,
  signOutRoute,
  accountsFormRoute,
  chooseAccountRoute,
  invitationRoute,
  acceptInvitationRoute,
  declineInvitationRoute,
  forgotPasswordFormRoute,
  forgotPasswordRoute,
  setPasswordFormRoute,
  setPasswordRoute,
  sessionsRoute,
  sessionsSignOutRoute,
  twoFactorSettingsRoute,
  enableTwoFactorRoute,
  disableTwoFactorRoute,
  recoveryCodesRoute,
  dashboardAssetRoute,
];
