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

/** What each scope lets an application do, in the words of the consent page (the spec's, where it has them). */
export const scopeDescriptions: Record<Scope, string> = {
  'read:projects': 'View projects and their settings',
  'write:projects': 'Create and modify projects',
  'read:workflows': 'View workflows and their status',
  'write:workflows': 'Create, trigger and modify workflows',
  'read:security': 'View security scan results',
  'write:security': 'Trigger scans and manage findings',
  'read:deployments': 'View deployment history and status',
  'write:deployments': 'Trigger deployments and rollbacks',
  'read:webhooks': 'View webhooks, events and their deliveries',
  'write:webhooks': 'Create, change and delete webhooks, and send test events',
  'read:tests': 'View AI-generated tests and their results',
  'write:tests': 'Generate and run AI-written tests',
  'read:reviews': 'View code reviews and their comments',
  'write:reviews': 'Request code reviews of branches and changes',
};
