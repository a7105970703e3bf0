import type { ComponentChildren } from 'preact';
import { stylesheetPath } from './assets/stylesheet';
import { Button, PostForm } from './components';

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
  /** A single column for forms (sign-in, consent); the full width otherwise. */
  narrow?: boolean;
  children: ComponentChildren;
}

/** The shell of every page: the stylesheet, the header with who is signed in, the main column. */
export const Layout = ({ title, viewer, narrow, children }: LayoutProps) => (
  <html lang="en">
    <head>
      <meta charSet="utf-8" />
      <meta name="viewport" content="width=device-width, initial-scale=1" />
      <meta name="referrer" content="no-referrer" />
      <title>{`${title} · ${serviceName}`}</title>
      <link rel="stylesheet" href={stylesheetPath} />
    </head>
    <body>
      <header className="site-header">
        <div className="site-header__inner">
          <a className="site-header__name" href="/dashboard">
            {serviceName}
          </a>
          {viewer && (
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
              <PostForm action="/dashboard/sign-out" csrfToken={viewer.csrfToken} className="inline-form">
                <Button variant="link">Sign out</Button>
              </PostForm>
            </>
          )}
        </div>
      </header>
      <main className={narrow ? 'site-main site-main--narrow' : 'site-main'} id="main">
        {children}
      </main>
      <footer className="site-footer">{serviceName}</footer>
    </body>
  </html>
);
