/** The spec's eight scopes plus the ones DESIGN.md adds for webhooks and tests. */
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
] as const;

export type Scope = (typeof allScopes)[number];

export const isScope = (value: string): value is Scope => (allScopes as readonly string[]).includes(value);

export const isReadScope = (scope: Scope): boolean => scope.startsWith('read:');

export const readScopes: Scope[] = allScopes.filter(isReadScope);
