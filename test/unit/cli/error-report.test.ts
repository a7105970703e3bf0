import { optionOfField } from '../../../bin/api/command';
import { errorReport } from '../../../bin/api/error-report';

describe('the CLI error report', () => {
  it('prints a single field issue once: the message already says it', () => {
    const failure = {
      status: 422,
      code: 'validation_error',
      message: 'Invalid framework: must be one of jest, vitest, node:test, pytest',
      details: { field: 'framework', issue: 'must be one of jest, vitest, node:test, pytest' },
      errors: [{ field: 'framework', issue: 'must be one of jest, vitest, node:test, pytest' }],
      requestId: 'req_1',
    };
    expect(errorReport(failure, false)).toBe(
      'Error 422 validation_error: Invalid framework: must be one of jest, vitest, node:test, pytest (request req_1)',
    );
  });

  it('keeps the details the message leaves out, and lists every field when there are several', () => {
    expect(
      errorReport(
        { status: 403, code: 'insufficient_scope', message: 'This key lacks a scope.', details: { required_scope: 'write:tests' } },
        false,
      ),
    ).toBe('Error 403 insufficient_scope: This key lacks a scope. {"required_scope":"write:tests"}');
    expect(
      errorReport(
        {
          status: 422,
          code: 'validation_error',
          message: 'Invalid name: is required',
          details: { field: 'name', issue: 'is required' },
          errors: [
            { field: 'name', issue: 'is required' },
            { field: 'repository', issue: 'is required' },
          ],
        },
        false,
      ),
    ).toBe('Error 422 validation_error: Invalid name: is required\n  name: is required\n  repository: is required');
  });

  it('names the option that set a field the API spells otherwise', () => {
    const options = {
      project: { type: 'string', description: '' },
      config: { type: 'string', description: '' },
      'config-file': { type: 'string', description: '' },
      'max-iterations': { type: 'string', description: '' },
      provider: { type: 'string', description: '' },
    } as const;
    expect(optionOfField(options, 'project_id')).toBe('project');
    expect(optionOfField(options, 'config.branch')).toBe('config');
    expect(optionOfField(options, 'config.max_iterations')).toBe('max-iterations');
    expect(optionOfField(options, 'config.ai_provider')).toBe('provider');
    expect(optionOfField(options, 'name')).toBeUndefined();
    const failure = {
      status: 422,
      code: 'validation_error',
      message: 'Invalid project_id: is not a project of this account and mode',
      details: { field: 'project_id', issue: 'is not a project of this account and mode' },
    };
    expect(errorReport(failure, false, (field) => optionOfField(options, field))).toBe(
      'Error 422 validation_error: Invalid project_id: is not a project of this account and mode\n  project_id (set by --project)',
    );
    expect(JSON.parse(errorReport(failure, true, (field) => optionOfField(options, field))).error).not.toHaveProperty('option');
  });

  it('prints the envelope with --json, the request id only when there was a request', () => {
    expect(JSON.parse(errorReport({ status: 404, code: 'not_found', message: 'Credential not found.' }, true))).toEqual({
      error: { status: 404, code: 'not_found', message: 'Credential not found.' },
    });
    expect(JSON.parse(errorReport({ status: 404, code: 'not_found', message: 'Project not found.', requestId: 'r' }, true))).toEqual({
      error: { status: 404, code: 'not_found', message: 'Project not found.', request_id: 'r' },
    });
  });
});
