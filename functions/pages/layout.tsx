import type { ComponentChildren } from 'preact';
import { scriptPath, stylesheetPath } from './assets/paths';
import { AccountBar, DashboardNav, type Shell, TestModeBanner } from './dashboard-shell';
import { SignOutForm } from './parts/sign-out-form';

export const serviceName = 'Project Automation Service';

/** Who is signed in, for the header; absent on the pages before sign-in. */
export interface Viewer {
  email: string;
  accountId: string | null;
  csrfToken: string;
}

export interface LayoutProps {
  title: string;
  viewer?: Viewer;
  /** The dashboard's frame (account, mode, navigation): every page that acts for an account. */
  shell?: Shell;
  /** A single column for forms (sign-in, consent); the full width otherwise. */
  narrow?: boolean;
  children: ComponentChildren;
}

/** The dialog the script opens before a destructive action; without the script the server asks instead. */
const ConfirmDialog = () => (
  <dialog id="confirm-dialog" className="dialog" aria-labelledby="confirm-dialog-title">
    <h2 id="confirm-dialog-title">Are you sure?</h2>
    <p data-confirm-message="" />
    <div className="actions">
      <button type="button" className="button button--danger" data-confirm-accept="">
        Confirm
      </button>
      <button type="button" className="button button--secondary" data-confirm-cancel="">
        Cancel
      </button>
    </div>
  </dialog>
);

/** The shell of every page: the stylesheet and script, the header with who is signed in, the main column. */
export const Layout = ({ title, viewer, shell, narrow, children }: LayoutProps) => (
  <html lang="en">
    <head>
      <meta charSet="utf-8" />
      <meta name="viewport" content="width=device-width, initial-scale=1" />
      <meta name="referrer" content="no-referrer" />
      <title>{`${title} · ${shell?.mode === 'test' ? 'Test mode · ' : ''}${serviceName}`}</title>
      <link rel="stylesheet" href={stylesheetPath} />
      <script src={scriptPath} defer />
    </head>
    <body>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="site-header">
        <div className={shell ? 'site-header__inner site-header__inner--wide' : 'site-header__inner'}>
          <a className="site-header__name" href="/dashboard">
            {serviceName}
          </a>
          {shell ? (
            <AccountBar shell={shell} />
          ) : (
            viewer && (
              <>
                <nav className="site-nav" aria-label="Account">
                  <a href="/dashboard">Home</a>
                  <a href="/dashboard/sessions">Sessions</a>
                  <a href="/dashboard/two-factor">Two-factor sign-in</a>
                </nav>
                <span className="site-header__who">
                  {viewer.email}
                  {viewer.accountId && ` · ${viewer.accountId}`}
                </span>
                <SignOutForm csrfToken={viewer.csrfToken} />
              </>
            )
          )}
        </div>
      </header>
      {shell && <TestModeBanner shell={shell} />}
      {shell ? (
        <div className="dash-frame">
          <DashboardNav shell={shell} />
          <main className="dash-main" id="main">
            {children}
          </main>
        </div>
      ) : (
        <main className={narrow ? 'site-main site-main--narrow' : 'site-main'} id="main">
          {children}
        </main>
      )}
      <footer className="site-footer">{serviceName}</footer>
      {shell && <ConfirmDialog />}
    </body>
  </html>
);
