import * as v from 'valibot';
import type { ApiError } from '../../functions/core/errors';
import { parseWith } from '../../functions/http/validation';
import { apiRoutes } from '../../functions/routes';

/** The 422 `parseWith` throws for `input`, or undefined when it passes. */
const refusal = (schema: v.GenericSchema, input: Record<string, string>): ApiError | undefined => {
  try {
    parseWith(schema, input, 'query');
    return undefined;
  } catch (error) {
    return error as ApiError;
  }
};

describe('an unknown query parameter', () => {
  const withQuery = apiRoutes.filter((route) => route.query !== undefined);

  it('names every parameter the operation takes, on every route with a query', () => {
    expect(withQuery.length).toBeGreaterThan(10);
    for (const route of withQuery) {
      const known = Object.keys((route.query as unknown as { entries: Record<string, unknown> }).entries);
      const error = refusal(route.query as v.GenericSchema, { limit: '5' });
      expect([route.operationId, error?.code, error?.message]).toEqual([
        route.operationId,
        'validation_error',
        `Invalid limit: is not a known parameter; must be one of ${known.join(', ')}`,
      ]);
      expect(error?.details).toEqual({ field: 'limit', issue: `is not a known parameter; must be one of ${known.join(', ')}` });
    }
  });

  it('is refused beside known ones, which alone pass', () => {
    const route = withQuery.find((r) => r.operationId === 'listProjects');
    expect(refusal(route?.query as v.GenericSchema, { page: '2', limit: '5' })?.details).toMatchObject({ field: 'limit' });
    expect(refusal(route?.query as v.GenericSchema, { page: '2', per_page: '5' })).toBeUndefined();
  });

  it('says so when the operation takes no parameter at all', () => {
    const error = refusal(v.strictObject({}), { expand: 'x' });
    expect(error?.message).toBe('Invalid expand: is not a known parameter; this operation takes none');
  });

  it('names every unknown parameter, not only the first valibot reports', () => {
    const route = withQuery.find((r) => r.operationId === 'listProjects');
    const error = refusal(route?.query as v.GenericSchema, { limit: '5', page: '0', expand: 'x' });
    expect(error?.errors?.map((issue) => issue.field).sort()).toEqual(['expand', 'limit', 'page']);
  });

  it('names every unknown body field, at any depth, beside the other problems', () => {
    const schema = v.strictObject({ name: v.string(), config: v.optional(v.strictObject({ branch: v.string() })) });
    let error: ApiError | undefined;
    try {
      parseWith(schema, { colour: 'red', size: 3, config: { branch: 'main', depth: 1, shallow: true } }, 'body');
    } catch (thrown) {
      error = thrown as ApiError;
    }
    expect([...(error?.errors ?? [])].sort((a, b) => a.field.localeCompare(b.field))).toEqual([
      { field: 'colour', issue: 'is not a known field' },
      { field: 'config.depth', issue: 'is not a known field' },
      { field: 'config.shallow', issue: 'is not a known field' },
      { field: 'name', issue: 'is required' },
      { field: 'size', issue: 'is not a known field' },
    ]);
  });

  it('keeps a body field\'s wording: "is not a known field", with no list', () => {
    expect(() => parseWith(v.strictObject({ name: v.string() }), { name: 'a', colour: 'red' }, 'body')).toThrow(
      'Invalid colour: is not a known field',
    );
  });
});
