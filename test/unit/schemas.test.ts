import * as v from 'valibot';
import { parseWith, toFieldIssues } from '../../functions/http/validation';
import { buildOpenApiDocument } from '../../functions/openapi/build-document';
import { routes } from '../../functions/routes/index';
import { createDeploymentBody } from '../../functions/routes/schemas/deployments-bodies';
import { createProjectBody } from '../../functions/routes/schemas/projects-bodies';
import { recoverBody } from '../../functions/routes/schemas/webhooks-bodies';
import { createWorkflowBody } from '../../functions/routes/schemas/workflows-bodies';

const issuesOf = (schema: v.GenericSchema, input: unknown): string[] => {
  const result = v.safeParse(schema, input);
  return result.success ? [] : result.issues.map((issue) => `${v.getDotPath(issue)}: ${issue.message}`);
};

const project = (name: string) => ({ name, repository: 'https://github.com/acme/shop' });

describe('lengths count Unicode code points, as JSON Schema does', () => {
  it('takes 100 emoji as a 100-character name and refuses 101', () => {
    expect(issuesOf(createProjectBody, project('😀'.repeat(100)))).toEqual([]);
    expect(issuesOf(createProjectBody, project('😀'.repeat(101)))).toEqual(['name: must be 1 to 100 characters']);
    expect(issuesOf(createWorkflowBody, { project_id: 'proj_x', prompt: 'p', name: '👩🏽‍💻'.repeat(25) })).toEqual([]);
  });

  it('documents the same bounds in the OpenAPI document', () => {
    const document = buildOpenApiDocument(routes) as any;
    const schema = document.paths['/v1/projects'].post.requestBody.content['application/json'].schema;
    expect(schema.properties.name).toMatchObject({ type: 'string', minLength: 1, maxLength: 100 });
    expect(schema.properties.description).toMatchObject({ type: 'string', maxLength: 2000 });
  });
});

describe('names', () => {
  it.each([
    ['a lone high surrogate', 'Shop \ud83d', 'must be valid Unicode (no lone surrogates)'],
    ['a lone low surrogate', '\ude00 Shop', 'must be valid Unicode (no lone surrogates)'],
    ['a right-to-left override', 'invoice\u202Egpj.exe', 'must not contain bidirectional control characters'],
    ['a right-to-left isolate', 'a\u2067b', 'must not contain bidirectional control characters'],
    ['a right-to-left mark', 'a\u200fb', 'must not contain bidirectional control characters'],
    ['a C1 control character', 'a\u0085b', 'must not contain control characters'],
  ])('refuses %s', (_, name, issue) => {
    expect(issuesOf(createProjectBody, project(name))).toEqual([`name: ${issue}`]);
    expect(issuesOf(createWorkflowBody, { project_id: 'proj_x', prompt: 'p', name })).toEqual([`name: ${issue}`]);
  });

  it('keeps right-to-left scripts themselves', () => {
    expect(issuesOf(createProjectBody, project('متجر إلكتروني'))).toEqual([]);
    expect(issuesOf(createProjectBody, project('חנות'))).toEqual([]);
  });
});

describe('repository addresses', () => {
  const refusal = 'repository: must be an https:// URL (ssh:// and git@host:path addresses are not supported) or a file:/// URL';

  it('takes https and file:/// addresses', () => {
    for (const repository of ['https://github.com/acme/shop.git', 'https://git.example.org:8443/team/app', 'file:///srv/app'])
      expect(issuesOf(createProjectBody, { name: 'Shop', repository })).toEqual([]);
  });

  it('refuses ssh addresses, which the service could never check out, whatever their host', () => {
    for (const repository of [
      'ssh://git@github.com/acme/shop.git',
      'git@github.com:acme/shop.git',
      'ssh://git@127.0.0.1/a/b',
      'git@169.254.169.254:a/b',
    ])
      expect(issuesOf(createProjectBody, { name: 'Shop', repository })).toEqual([refusal]);
  });
});

describe('deployment bodies', () => {
  it('name every problem at once: an unknown provider beside a missing branch', () => {
    const parsed = v.safeParse(createDeploymentBody, { project_id: 'proj_x', environment: 'production', provider: 'ftp', config: {} });
    expect(parsed.success ? [] : toFieldIssues(parsed.issues, 'body')).toEqual([
      { field: 'provider', issue: 'must be one of deploy-hook, aws-lambda' },
      { field: 'config.branch', issue: 'is required' },
    ]);
  });
});

describe('timestamps a caller sends', () => {
  it.each(['2026-02-30T00:00:00Z', '2026-13-01T00:00:00Z', '2025-02-29T12:00:00.000Z', '2026-04-31T00:00:00+02:00'])(
    'refuses the impossible %s instead of rolling it over',
    (since) => {
      expect(issuesOf(recoverBody, { since })[0]).toMatch(/^since: must be/);
    },
  );

  it('takes real instants, with or without an offset', () => {
    for (const since of ['2024-02-29T00:00:00Z', '2026-11-21T10:00:00.000Z', '2026-11-21T10:00:00+01:00']) {
      expect(issuesOf(recoverBody, { since })).toEqual([]);
    }
  });
});

describe('an object field given an array', () => {
  const refusal = (schema: v.GenericSchema, body: unknown) => {
    try {
      parseWith(schema, body, 'body');
    } catch (error) {
      return (error as { details?: unknown }).details;
    }
    return 'accepted';
  };

  it('is refused as not a JSON object, not read as an empty object', () => {
    expect(refusal(createWorkflowBody, { project_id: 'proj_x', prompt: 'p', config: [] })).toEqual({
      field: 'config',
      issue: 'must be a JSON object',
    });
    expect(refusal(createDeploymentBody, { project_id: 'proj_x', environment: 'staging', provider: 'deploy-hook', config: [] })).toEqual({
      field: 'config',
      issue: 'must be a JSON object',
    });
  });

  it('leaves objects, and arrays where arrays belong, to the schema', () => {
    expect(refusal(createWorkflowBody, { project_id: 'proj_x', prompt: 'p', config: {} })).toBe('accepted');
    expect(refusal(createWorkflowBody, { project_id: 'proj_x', prompt: 'p' })).toBe('accepted');
  });
});

describe('names and descriptions hold text a person can read', () => {
  it('refuses a name of invisible characters alone as blank', () => {
    for (const blank of ['\u200b', ' \u2060 ', '\ufeff', '\u00a0'])
      expect([blank, issuesOf(createProjectBody, project(blank))]).toEqual([blank, ['name: must not be blank']]);
    expect(issuesOf(createProjectBody, project('a\u200db'))).toEqual([]);
  });

  it('takes lines and tabs in a description, and refuses any other control character', () => {
    expect(issuesOf(createProjectBody, { ...project('Shop'), description: 'First line\n\tsecond\r\n' })).toEqual([]);
    for (const control of ['\u0000', '\u0007', '\u001b[31m', '\u0085'])
      expect(issuesOf(createProjectBody, { ...project('Shop'), description: `a${control}b` })).toEqual([
        'description: must not contain control characters other than tab and line breaks',
      ]);
    expect(issuesOf(createProjectBody, { ...project('Shop'), description: 'half \ud800 a pair' })).toEqual([
      'description: must be valid Unicode (no lone surrogates)',
    ]);
  });
});
