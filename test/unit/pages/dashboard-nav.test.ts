import { h, type VNode } from 'preact';
import { renderToString } from 'preact-render-to-string';
import { DashboardNav, withFailedWebhooks } from '../../../functions/pages/dashboard-shell';
import { adminShell } from '../fakes/dashboard-shell';

/** The text of the navigation's Menu control (what a screen reader names it), tags dropped. */
const menuControl = (html: string) => /<summary[^>]*>([\s\S]*?)<\/summary>/.exec(html)?.[1]?.replace(/<[^>]+>/g, '');

/** The navigation as a page at `path` renders it. */
const nav = (path: string): VNode => h(DashboardNav, { shell: adminShell(path) }) as VNode;

describe("the dashboard's navigation", () => {
  it('folds into a Menu control that names the current page, and the failed webhooks the folded badge would show', () => {
    expect(menuControl(renderToString(nav('/dashboard/developers/api-keys/key_1')))).toBe('Menu, current page: API keys');
    expect(menuControl(renderToString(withFailedWebhooks(2, nav('/dashboard/webhooks'))))).toBe(
      'Menu, current page: Webhooks, 2 failed webhooks',
    );
    expect(menuControl(renderToString(withFailedWebhooks(1, nav('/dashboard/accounts'))))).toBe('Menu, 1 failed webhook');
  });
});
