import { renderToString } from 'preact-render-to-string';
import { ProjectFields } from '../../../functions/pages/views/dashboard/projects/projects';
import { createProjectBody } from '../../../functions/routes/schemas/projects-bodies';
import * as v from 'valibot';

describe("the project form's repository field", () => {
  it('promises only the addresses the API takes: https (and file:/// locally), never ssh', () => {
    const html = renderToString(ProjectFields({ form: { name: '', repository: '', description: '' } }));
    expect(html).toContain('An https:// URL');
    expect(html).toContain('ssh:// and git@host:path addresses are refused');
    for (const refused of ['ssh://git@github.com/acme/shop.git', 'git@github.com:acme/shop.git']) {
      expect(v.safeParse(createProjectBody, { name: 'Shop', repository: refused }).success).toBe(false);
    }
  });
});
