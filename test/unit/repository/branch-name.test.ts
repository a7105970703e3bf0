import * as v from 'valibot';
import { branchNameProblem } from '../../../functions/adapters/repository/branch-name';
import { branchName } from '../../../functions/routes/schemas/common';
import { createReviewBody } from '../../../functions/routes/schemas/reviews-bodies';
import { parseRepositoryAddress } from '../../../functions/adapters/repository/repository-address';

const acceptedNames = ['main', 'automation/wf_01HZX', 'release-1.2', 'feature/a.b/c', 'a@b', 'fix-', 'a.locks/b'];

describe('branchNameProblem', () => {
  it.each(acceptedNames)('accepts %s', (name) => {
    expect(branchNameProblem(name)).toBeNull();
  });

  it.each([
    '',
    'a..b',
    '-x',
    'a b',
    'a~1',
    'a^',
    'a:b',
    'a?',
    'a*',
    'a[b',
    'a\\b',
    '/a',
    'a/',
    'a//b',
    '.hidden',
    'a/.b',
    'x.lock',
    'a.',
    'a@{1}',
    '@',
    'tab\there',
    'a.lock/b',
    'a/-b/.c',
  ])('refuses %j, and so does the request schema (a request is refused before any work starts)', (name) => {
    expect(branchNameProblem(name)).not.toBeNull();
    expect(v.safeParse(branchName, name).success).toBe(false);
    expect(v.safeParse(createReviewBody, { project_id: 'proj_x', head: 'feature', base: name }).success).toBe(false);
  });

  it.each(acceptedNames)('the request schema accepts %s too', (name) => {
    expect(v.safeParse(branchName, name).success).toBe(true);
    expect(v.safeParse(createReviewBody, { project_id: 'proj_x', head: name }).success).toBe(true);
  });

  it('takes a full commit id where a review names a branch or a commit', () => {
    expect(
      v.safeParse(createReviewBody, { project_id: 'proj_x', head: 'a'.repeat(40), base: '0123456789abcdef0123456789abcdef01234567' })
        .success,
    ).toBe(true);
  });
});

describe('parseRepositoryAddress', () => {
  it('reads https and file addresses', () => {
    expect(parseRepositoryAddress('https://github.com/acme/app.git')).toEqual({ kind: 'https', url: 'https://github.com/acme/app.git' });
    expect(parseRepositoryAddress('file:///srv/repos/app')).toEqual({ kind: 'file', path: '/srv/repos/app' });
  });

  it.each([
    ['http://example.com/app.git', 'http repositories are not supported'],
    ['ssh://git@example.com/app.git', 'ssh repositories are not supported'],
    ['git@github.com:acme/app.git', 'ssh repositories are not supported'],
    ['file://host/share/app', 'file:///absolute/path'],
    ['not a url', 'not a URL'],
    ['https://user:pw@example.com/app.git', 'credentials in the repository URL'],
  ])('refuses %s', (address, message) => {
    expect(() => parseRepositoryAddress(address)).toThrow(message);
  });
});
