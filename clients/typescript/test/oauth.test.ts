import { createClient, type OAuthTokens, ServiceApiError } from '@project-automation-service/sdk';
import { apiError, fakeFetch, json, type SentRequest } from './fake-fetch';

const list = () => json(200, { data: [], meta: { page: 1, per_page: 20, total: 0, total_pages: 0 } });

/** An API that accepts one access token, and a token endpoint that issues the next pair. */
const server = (accepted: () => string, issue: (request: SentRequest) => Response) => (request: SentRequest) => {
  if (request.url.endsWith('/oauth/token')) return issue(request);
  return request.headers.get('authorization') === `Bearer ${accepted()}` ? list() : apiError(401, 'unauthorized');
};

describe('OAuth access tokens', () => {
  it('refreshes through /oauth/token after a 401, sends the request again with the new token, and reports the new pair', async () => {
    let valid = 'svc_oauth_new';
    const stored: OAuthTokens[] = [];
    const { fetch, sent } = fakeFetch(
      server(
        () => valid,
        () => json(200, { access_token: 'svc_oauth_new', refresh_token: 'rt_2', expires_in: 3600, token_type: 'Bearer' }),
      ),
    );
    const api = createClient({
      baseUrl: 'http://api.test/v1',
      fetch,
      oauth: { accessToken: 'svc_oauth_old', refreshToken: 'rt_1', clientId: 'cli_1', onTokens: (t) => void stored.push(t) },
    });
    await api.get('/v1/projects');
    expect(sent.map((r) => `${r.method} ${new URL(r.url).pathname}`)).toEqual([
      'GET /v1/projects',
      'POST /oauth/token',
      'GET /v1/projects',
    ]);
    const form = new URLSearchParams(sent[1]?.body);
    expect(Object.fromEntries(form)).toEqual({ grant_type: 'refresh_token', refresh_token: 'rt_1', client_id: 'cli_1' });
    expect(sent[1]?.headers.get('content-type')).toBe('application/x-www-form-urlencoded');
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ accessToken: 'svc_oauth_new', refreshToken: 'rt_2' });
    expect(stored[0]?.expiresAt).toBeGreaterThan(Date.now() + 3_500_000);

    // The rotated refresh token is the one used next time.
    valid = 'svc_oauth_third';
    const next = fakeFetch(
      server(
        () => valid,
        () => json(200, { access_token: 'svc_oauth_third', expires_in: 3600 }),
      ),
    );
    const again = createClient({ baseUrl: 'http://api.test', fetch: next.fetch, oauth: { ...stored[0]!, clientId: 'cli_1' } });
    await again.get('/v1/projects');
    expect(new URLSearchParams(next.sent[1]?.body).get('refresh_token')).toBe('rt_2');
  });

  it('refreshes before sending when the access token is about to expire, once for requests sent together', async () => {
    const { fetch, sent } = fakeFetch(
      server(
        () => 'svc_oauth_fresh',
        () => json(200, { access_token: 'svc_oauth_fresh', expires_in: 600 }),
      ),
    );
    const api = createClient({
      baseUrl: 'http://api.test',
      fetch,
      oauth: { accessToken: 'svc_oauth_dying', refreshToken: 'rt', clientId: 'cli', expiresAt: Date.now() + 5_000 },
    });
    await Promise.all([api.get('/v1/projects'), api.get('/v1/projects'), api.get('/v1/projects')]);
    expect(sent.filter((r) => r.url.endsWith('/oauth/token'))).toHaveLength(1);
    expect(sent.filter((r) => r.url.endsWith('/v1/projects')).map((r) => r.headers.get('authorization'))).toEqual([
      'Bearer svc_oauth_fresh',
      'Bearer svc_oauth_fresh',
      'Bearer svc_oauth_fresh',
    ]);
  });

  it('throws the 401 when there is nothing to refresh with, and the token error when the refresh is refused', async () => {
    const noRefresh = fakeFetch(
      server(
        () => 'other',
        () => json(500, {}),
      ),
    );
    await expect(
      createClient({ baseUrl: 'http://api.test', fetch: noRefresh.fetch, oauth: { accessToken: 'svc_oauth_x', clientId: 'c' } }).get(
        '/v1/projects',
      ),
    ).rejects.toMatchObject({ status: 401, code: 'unauthorized' });
    expect(noRefresh.sent).toHaveLength(1);

    const refused = fakeFetch(
      server(
        () => 'other',
        () => json(400, { error: 'invalid_grant', error_description: 'The refresh token was revoked.' }),
      ),
    );
    const error = await createClient({
      baseUrl: 'http://api.test',
      fetch: refused.fetch,
      oauth: { accessToken: 'svc_oauth_x', refreshToken: 'rt', clientId: 'c', clientSecret: 's3cret' },
    })
      .get('/v1/projects')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceApiError);
    expect(error).toMatchObject({ status: 400, code: 'invalid_grant', message: 'The refresh token was revoked.' });
    expect(new URLSearchParams(refused.sent[1]?.body).get('client_secret')).toBe('s3cret');
  });

  it('refuses an API key and OAuth tokens together', () => {
    expect(() => createClient({ apiKey: 'k', oauth: { accessToken: 'a', clientId: 'c' } })).toThrow('not both');
  });
});
