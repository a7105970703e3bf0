import { readFileSync } from 'node:fs';
import { routes } from '../../functions/routes';

describe('the README', () => {
  it('lists the scope of every route, and only routes that exist', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const table = readme.split('<!-- route-scope-table:start -->')[1]?.split('<!-- route-scope-table:end -->')[0] ?? '';
    const rows = table
      .split('\n')
      .filter((line) => /^\| (GET|POST|PATCH|DELETE) /.test(line))
      .map((line) =>
        line
          .split('|')
          .map((cell) => cell.trim())
          .slice(1, 4)
          .join(' '),
      );
    const expected = routes.map((r) => `${r.method} ${r.path} ${r.scope === null ? 'none (public)' : `\`${r.scope}\``}`);
    expect(rows.sort()).toEqual(expected.sort());
  });
});
