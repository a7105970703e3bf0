import { createContext, type VNode } from 'preact';
import { useContext } from 'preact/hooks';
import type { Mode } from '../core/tenancy';
import type { Role } from '../core/users/user';
import type { Viewer } from './layout';
import { PostForm } from './parts/post-form';
import { SignOutForm } from './parts/sign-out-form';

/** What every dashboard page shows around its content: who, which account, which mode, where to go. */
export interface Shell {
  viewer: Viewer;
  accountId: string;
  role: Role;
  mode: Mode;
  /** The page's path, to mark the current link. */
  path: string;
  /** The page's path and query, to come back to after switching the mode. */
  here: string;
}

interface NavItem {
  label: string;
  href: string;
  badge?: string;
}

/**
 * How many webhooks exhausted their delivery schedule: a badge beside Webhooks on every page. The
 * page pipeline counts them while the page reads its own data and provides the number when it
 * renders, so the badge costs no round trip of its own.
 */
const FailedWebhooks = createContext(0);

/** A dashboard page with the failed-webhook count its navigation shows. */
export const withFailedWebhooks = (count: number, page: VNode): VNode => (
  <FailedWebhooks.Provider value={count}>{page}</FailedWebhooks.Provider>
);

const sections = (failedWebhooks: number): { heading?: string; items: NavItem[] }[] => [
  {
    items: [
      { label: 'Home', href: '/dashboard' },
      { label: 'Projects', href: '/dashboard/projects' },
      { label: 'Workflows', href: '/dashboard/workflows' },
      { label: 'Security', href: '/dashboard/security' },
      { label: 'Deployments', href: '/dashboard/deployments' },
      { label: 'Tests', href: '/dashboard/tests' },
      {
        label: 'Webhooks',
        href: '/dashboard/webhooks',
        badge: failedWebhooks > 0 ? `${failedWebhooks} failed` : undefined,
      },
    ],
  },
  {
    heading: 'Developers',
    items: [
      { label: 'API keys', href: '/dashboard/developers/api-keys' },
      { label: 'Applications', href: '/dashboard/developers/applications' },
      { label: 'Authorized applications', href: '/dashboard/developers/authorized-applications' },
      { label: 'Requests', href: '/dashboard/developers/requests' },
    ],
  },
  {
    heading: 'Settings',
    items: [
      { label: 'Team', href: '/dashboard/team' },
      { label: 'Audit log', href: '/dashboard/audit-log' },
      { label: 'Your sessions', href: '/dashboard/sessions' },
      { label: 'Two-factor sign-in', href: '/dashboard/two-factor' },
    ],
  },
];

const isCurrent = (href: string, path: string): boolean =>
  href === '/dashboard' ? path === href : path === href || path.startsWith(`${href}/`);

/** The link the page belongs to, named in the menu's control on a phone. */
const currentItem = (items: NavItem[], path: string): NavItem | undefined => items.find((item) => isCurrent(item.href, path));

/**
 * The dashboard's navigation; the failed-webhooks badge sits beside its link, so the link keeps its name.
 * On a phone it folds into one "Menu" control (a `<details>`, so it opens without any script) that names
 * the current page, so the page's heading is in the first screen; on wider screens the stylesheet hides
 * the control and shows the links, closed or not.
 */
export const DashboardNav = ({ shell }: { shell: Shell }) => {
  const failedWebhooks = useContext(FailedWebhooks);
  const all = sections(failedWebhooks);
  const current = currentItem(
    all.flatMap((section) => section.items),
    shell.path,
  );
  return (
    <nav className="dash-nav" aria-label="Dashboard">
      <details className="dash-nav__menu">
        <summary className="dash-nav__toggle">
          <span className="dash-nav__toggle-label">Menu</span>
          {current && (
            <span className="dash-nav__current">
              <span className="visually-hidden">, current page: </span>
              {current.label}
            </span>
          )}
          {failedWebhooks > 0 && (
            <span className="badge badge--danger">
              <span className="visually-hidden">, </span>
              {failedWebhooks} failed {failedWebhooks === 1 ? 'webhook' : 'webhooks'}
            </span>
          )}
        </summary>
        {all.map((section) => (
          <div className="dash-nav__section" key={section.heading ?? 'main'}>
            {section.heading && <h2 className="dash-nav__heading">{section.heading}</h2>}
            <ul>
              {section.items.map((item) => (
                <li key={item.href}>
                  <a href={item.href} aria-current={isCurrent(item.href, shell.path) ? 'page' : undefined}>
                    {item.label}
                  </a>
                  {item.badge && <span className="badge badge--danger dash-nav__badge">{item.badge}</span>}
                </li>
              ))}
            </ul>
          </div>
        ))}
      </details>
    </nav>
  );
};

/** The switch named "Test mode": a button that turns it over, which works without any script. */
export const ModeSwitch = ({ shell }: { shell: Shell }) => (
  <PostForm action="/dashboard/mode" csrfToken={shell.viewer.csrfToken} className="inline-form mode-switch">
    <input type="hidden" name="return_to" value={shell.here} />
    <input type="hidden" name="mode" value={shell.mode === 'test' ? 'live' : 'test'} />
    <button type="submit" role="switch" aria-checked={shell.mode === 'test' ? 'true' : 'false'} className="switch">
      <span className="switch__track" aria-hidden="true">
        <span className="switch__thumb" />
      </span>
      Test mode
    </button>
  </PostForm>
);

/** Account, role and mode, always in view. */
export const AccountBar = ({ shell }: { shell: Shell }) => (
  <div className="account-bar">
    <span className="account-bar__account">
      Account <code>{shell.accountId}</code>
    </span>
    <span className={shell.mode === 'test' ? 'badge badge--test' : 'badge badge--ok'}>
      {shell.mode === 'test' ? 'Test data' : 'Live data'}
    </span>
    <span className="account-bar__who">
      {shell.viewer.email} ({shell.role})
    </span>
    <ModeSwitch shell={shell} />
    <a href="/dashboard/accounts">Switch account</a>
    <SignOutForm csrfToken={shell.viewer.csrfToken} />
  </div>
);

export const TestModeBanner = ({ shell }: { shell: Shell }) =>
  shell.mode === 'test' ? (
    <div className="test-banner">
      <strong>Test mode.</strong> You are viewing test data: what you do here never touches live data.
    </div>
  ) : null;
