import { createUser } from '../../functions/core/users/manage-users';
import { as } from './support/http';
import { csrfTokenIn, newPerson, webClient } from './support/web-client';

/** The rows of the active keys' table, each as its cells' text (tags dropped). */
const keyRows = (html: string): string[][] =>
  [...(/<table[^>]*keys-table[\s\S]*?<\/table>/.exec(html)?.[0] ?? '').matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((row) =>
    [...row[1]!.matchAll(/<t[hd][^>]*>([\s\S]*?)<\/t[hd]>/g)].map((cell) =>
      cell[1]!
        .replace(/<[^>]+>/g, ' ')
        .replace(/\s+/g, ' ')
        .trim(),
    ),
  );

/**
 * Who made a key, over HTTP on the local runtime (DynamoDB Local): the keys page names them, the
 * team page says what removing them does, and after the removal their personal access token is
 * refused as a revoked one while the API key they made keeps working.
 */
describe('keys and the people who made them', () => {
  it('names the creator of each key, warns on removal, and ends only the personal access token of a removed member', async () => {
    const admin = await newPerson({ role: 'admin' });
    const adminClient = webClient();
    expect((await adminClient.signIn(admin.email, admin.password)).status).toBe(303);
    const memberEmail = `member-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
    const memberPassword = `pass phrase ${Math.random().toString(36).slice(2)}`;
    const member = (
      await createUser({ email: memberEmail, accountId: admin.account.id, role: 'viewer', password: memberPassword }, admin.deps)
    ).user;
    const memberClient = webClient();
    expect((await memberClient.signIn(memberEmail, memberPassword)).status).toBe(303);

    const create = async (type: 'pat' | 'ro', name: string) => {
      const answer = await memberClient.submit('/dashboard/developers/api-keys', '/dashboard/developers/api-keys', {
        name,
        type,
        scopes: 'read:projects',
      });
      expect(answer.status).toBe(200);
      return new RegExp(`svc_${type}_[0-9A-Za-z]+`).exec(answer.text)![0];
    };
    const pat = await create('pat', 'member laptop');
    const readOnly = await create('ro', 'member dashboards');
    const spare = await create('pat', 'member spare');
    expect((await as(pat).get('/projects')).status).toBe(200);

    // The keys page: the member's e-mail beside their keys, "—" beside the keys the system made.
    const rows = keyRows((await adminClient.get('/dashboard/developers/api-keys')).text);
    const creatorOf = (name: string) => {
      const row = rows.find((cells) => cells[0]?.startsWith(name));
      const headings = rows[0]!;
      return row?.[headings.indexOf('Created by')];
    };
    expect(rows[0]).toContain('Created by');
    expect(creatorOf('member laptop')).toBe(memberEmail);
    expect(creatorOf('member dashboards')).toBe(memberEmail);
    expect(creatorOf('live key')).toBe('—');

    // What each may do: a personal access token is rolled by its maker alone; a viewer manages only their own keys.
    const adminsReader = await adminClient.submit('/dashboard/developers/api-keys', '/dashboard/developers/api-keys', {
      name: 'admin dashboards',
      type: 'ro',
      scopes: 'read:projects',
    });
    expect(adminsReader.status).toBe(200);
    const actionsOf = (html: string, name: string) => {
      const table = keyRows(html);
      return table.find((cells) => cells[0]?.startsWith(name))?.[table[0]!.indexOf('Actions')] ?? '';
    };
    const adminsPage = (await adminClient.get('/dashboard/developers/api-keys')).text;
    expect(actionsOf(adminsPage, 'member laptop')).toContain('Revoke');
    expect(actionsOf(adminsPage, 'member laptop')).not.toContain('Roll key');
    expect(actionsOf(adminsPage, 'member dashboards')).toContain('Roll key');
    const membersPage = (await memberClient.get('/dashboard/developers/api-keys')).text;
    expect(actionsOf(membersPage, 'member laptop')).toContain('Roll key');
    expect(actionsOf(membersPage, 'admin dashboards')).toBe('');
    const adminsReaderId = keyRows(membersPage)
      .find((cells) => cells[0]?.startsWith('admin dashboards'))?.[0]
      ?.split(' ')
      .at(-1);
    const refusedRoll = await memberClient.post(`/dashboard/developers/api-keys/${adminsReaderId}/roll`, {
      csrf_token: csrfTokenIn(membersPage),
      confirmed: 'yes',
      overlap_hours: '0',
    });
    expect(refusedRoll.status).toBe(403);
    expect(refusedRoll.text).toContain('A viewer can manage only the keys they made with read:* scopes');

    // A revoked token, for the answer to compare with.
    const spareKeyId = rows
      .find((cells) => cells[0]?.startsWith('member spare'))?.[0]
      ?.split(' ')
      .at(-1);
    expect(spareKeyId).toMatch(/^[a-z]+_[0-9A-Za-z]+$/);
    const revoke = await adminClient.submit('/dashboard/developers/api-keys', `/dashboard/developers/api-keys/${spareKeyId}/revoke`, {
      confirmed: 'yes',
    });
    expect(revoke.status).toBe(303);

    // The team page's removal question and the page that asks without a script both say what happens.
    const team = (await adminClient.get('/dashboard/team')).text;
    expect(team).toContain(`Remove ${memberEmail} from the account?`);
    expect(team).toContain('API keys they created: 1 ');
    expect(team).toContain('Their personal access tokens are revoked: 1.');
    const removeAction = `/dashboard/team/${encodeURIComponent(member.id)}/remove`;
    const asked = await adminClient.post(removeAction, { csrf_token: csrfTokenIn(team) });
    expect(asked.status).toBe(200);
    expect(asked.text).toContain('API keys they created: 1 ');
    expect((await as(pat).get('/projects')).status).toBe(200);

    const removed = await adminClient.post(removeAction, { csrf_token: csrfTokenIn(team), confirmed: 'yes' });
    expect(removed.status).toBe(303);

    const refused = await as(pat).get('/projects');
    const revoked = await as(spare).get('/projects');
    expect(refused.status).toBe(401);
    expect(refused.body.error.message).toBe(revoked.body.error.message);
    expect(refused.body.error.code).toBe(revoked.body.error.code);
    expect(refused.headers.get('www-authenticate')).toBe(revoked.headers.get('www-authenticate'));
    expect((await as(readOnly).get('/projects')).status).toBe(200);
    // The system's keys, made by nobody, are untouched too.
    expect((await as(admin.live.key).get('/projects')).status).toBe(200);
    // The page still names who made the key that stays.
    expect(keyRows((await adminClient.get('/dashboard/developers/api-keys')).text).some((cells) => cells.includes(memberEmail))).toBe(true);
  });
});
