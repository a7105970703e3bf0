/** The spec's eight scopes plus the ones DESIGN.md adds for webhooks, tests and code reviews. */
export const allScopes = [
  'read:projects',
  'write:projects',
  'read:workflows',
  'write:workflows',
  'read:security',
  'write:security',
  'read:deployments',
  'write:deployments',
  'read:webhooks',
  'write:webhooks',
  'read:tests',
  'write:tests',
  'read:reviews',
  'write:reviews',
] as const;

export type Scope = (typeof allScopes)[number];

export const isScope = (value: string): value is Scope => (allScopes as readonly string[]).includes(value);

export const isReadScope = (scope: Scope): boolean => scope.startsWith('read:');

export const readScopes: Scope[] = allScopes.filter(isReadScope);
