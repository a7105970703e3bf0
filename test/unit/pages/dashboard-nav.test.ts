import { h } from 'preact';
import { renderToString } from 'preact-render-to-string';
import { DashboardNav, withFailedWebhooks } from '../../../functions/pages/dashboard-shell';
import { adminShell } from '../fakes/dashboard-shell';

/** The text of the navigation's Menu control (what a screen reader names it), tags dropped. */
const menuControl = (html: string) => /<summary[^>]*>([\s\S]*?)<\/summary>/.exec(html)?.[1].replace(/<[^>]+>/g, '');

describe("the dashboard's navigation", () => {
  it('folds into a Menu control that names the current page, and the failed webhooks the folded badge would show', () => {
    expect(menuControl(renderToString(h(DashboardNav, { shell: adminShell('/dashboard/developers/api-keys/key_1') })))).toBe(
      'Menu, current page: API keys',
    );
    expect(menuControl(renderToString(withFailedWebhooks(2, h(DashboardNav, { shell: adminShell('/dashboard/webhooks') }))))).toBe(
      'Menu, current page: Webhooks, 2 failed webhooks',
    );
    expect(menuControl(renderToString(withFailedWebhooks(1, h(DashboardNav, { shell: adminShell('/dashboard/accounts') }))))).toBe(
      'Menu, 1 failed webhook',
    );
  });
});
