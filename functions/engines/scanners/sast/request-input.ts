/**
 * Whether an expression visibly derives from request input — the test that narrows the rules
 * whose sinks ordinary code uses with non-constant values all the time (a file path, a RegExp
 * source, a module specifier; see rules.ts).
 *
 * "Visibly" means: the expression, or the initial value of a variable it uses (followed through
 * `const`/`let`/`var` declarations with one definition, destructuring included, up to
 * `MAX_DEPTH` steps), mentions
 * - a conventional request object: a parameter named `req`, `request`, `ctx`, `event` (Lambda) or
 *   `evt`, or the browser's global `location` (e.g. `req.query.path`, `location.hash`);
 * - a request part by its conventional name: `.query`, `.params`, `.cookies`, `.searchParams`,
 *   `.queryStringParameters`, `.pathParameters`, `.multiValueQueryStringParameters` on any object
 *   (not as a method: `db.query(…)` is no input); `.body`, `.headers`, `.formData` when the chain
 *   goes through a request (`this.request.body`), since a response has a body and headers too.
 * A call to a function whose name says it escapes, sanitises, validates or confines its argument
 * (`escapeRegExp`, `sanitizePath`, `safeJoin`, `resolveInside`, `path.basename`…) ends the search
 * on that branch: its result counts as clean.
 * Data passed through function parameters under other names is not followed (no interprocedural
 * analysis): such a sink is not reported, which is the price of no false alarm on ordinary code.
 */
import type { Rule, Scope, SourceCode } from 'eslint';

/** Parameter names of request objects. */
export const REQUEST_OBJECTS: ReadonlySet<string> = new Set(['req', 'request', 'ctx', 'event', 'evt']);
/** Browser globals holding input (only when not a local name). */
export const INPUT_GLOBALS: ReadonlySet<string> = new Set(['location']);
/** Request parts that are input on any object (`route.params`, `url.searchParams`…). */
export const INPUT_PARTS: ReadonlySet<string> = new Set([
  'query',
  'params',
  'cookies',
  'searchParams',
  'queryStringParameters',
  'pathParameters',
  'multiValueQueryStringParameters',
]);
/** Parts that are input on a request only (a response has a `body` and `headers` too). */
export const REQUEST_PARTS: ReadonlySet<string> = new Set(['body', 'headers', 'formData']);
/** Property names that make a member chain a request (`this.request.body`, `ctx.req.headers`). */
const REQUEST_PROPERTIES: ReadonlySet<string> = new Set(['req', 'request']);

const MAX_DEPTH = 5;
/** Nodes looked at per question, a bound for huge generated expressions. */
const MAX_NODES = 2000;

interface EstreeNode {
  type: string;
  [key: string]: unknown;
}

const isNode = (value: unknown): value is EstreeNode =>
  typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';

const SKIPPED_KEYS = new Set(['parent', 'loc', 'range', 'tokens', 'comments', 'typeAnnotation', 'typeArguments', 'typeParameters']);

function propertyName(member: EstreeNode): string | null {
  const property = member.property as EstreeNode | undefined;
  if (!property) return null;
  if (!member.computed && property.type === 'Identifier') return property.name as string;
  if (property.type === 'Literal' && typeof property.value === 'string') return property.value;
  return null;
}

/** Functions whose name says they escape, sanitise, validate or confine their argument. */
export const SANITIZER_NAME = /escape|saniti[sz]e|validat|safe|inside|confine|basename/i;

const nameOf = (node: EstreeNode | undefined): string | null =>
  !node ? null : node.type === 'Identifier' ? (node.name as string) : node.type === 'MemberExpression' ? propertyName(node) : null;

const isSanitizerName = (name: string | null): boolean => name !== null && SANITIZER_NAME.test(name) && !/unsafe/i.test(name);

/** `escapeRegExp(x)`, `path.basename(x)`, or `xs.map(escapeRegExp)`. */
const isSanitizer = (call: EstreeNode): boolean =>
  isSanitizerName(nameOf(call.callee as EstreeNode | undefined)) ||
  (call.arguments as EstreeNode[]).some(
    (arg) => (arg.type === 'Identifier' || arg.type === 'MemberExpression') && isSanitizerName(nameOf(arg)),
  );

const isCallee = (node: EstreeNode): boolean => {
  const parent = node.parent as EstreeNode | undefined;
  return parent?.type === 'CallExpression' && parent.callee === node;
};

/** The identifiers and property names along a member chain (`this.request` → ['request']). */
const chainNames = (node: unknown): string[] => {
  const names: string[] = [];
  let current = node as EstreeNode | undefined;
  for (let i = 0; current && i < 50; i++) {
    if (current.type === 'Identifier') {
      names.push(current.name as string);
      break;
    }
    if (current.type === 'MemberExpression') {
      const name = propertyName(current);
      if (name !== null) names.push(name);
      current = current.object as EstreeNode;
    } else if (current.type === 'ChainExpression' || current.type === 'TSNonNullExpression' || current.type === 'TSAsExpression') {
      current = current.expression as EstreeNode;
    } else {
      break;
    }
  }
  return names;
};

const findVariable = (scope: Scope.Scope | null, name: string): Scope.Variable | null => {
  for (let s = scope; s; s = s.upper) {
    const variable = s.set.get(name);
    if (variable) return variable;
  }
  return null;
};

export function derivesFromRequestInput(expression: unknown, sourceCode: SourceCode): boolean {
  if (!isNode(expression)) return false;
  const visitedInits = new Set<unknown>();
  let budget = MAX_NODES;

  const search = (start: EstreeNode, depth: number): boolean => {
    const stack: EstreeNode[] = [start];
    while (stack.length > 0) {
      if (--budget < 0) return false;
      const node = stack.pop()!;
      if (node.type === 'CallExpression' && isSanitizer(node)) continue;
      if (node.type === 'MemberExpression' && !isCallee(node)) {
        const name = propertyName(node);
        if (name !== null && INPUT_PARTS.has(name)) return true;
        if (name !== null && REQUEST_PARTS.has(name) && chainNames(node.object).some((n) => REQUEST_PROPERTIES.has(n))) return true;
      }
      if (node.type === 'Identifier' && !isPropertyKey(node)) {
        const name = node.name as string;
        const variable = findVariable(sourceCode.getScope(node as unknown as Rule.Node), name);
        // `req`, `event`… as a parameter, or the browser's global `location`.
        if (REQUEST_OBJECTS.has(name) && (!variable || variable.defs.some((d) => d.type === 'Parameter'))) return true;
        if (INPUT_GLOBALS.has(name) && (!variable || variable.defs.length === 0)) return true;
        const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
        const init = def?.type === 'Variable' ? (def.node as unknown as EstreeNode).init : undefined;
        if (depth < MAX_DEPTH && isNode(init) && !visitedInits.has(init)) {
          visitedInits.add(init);
          if (search(init, depth + 1)) return true;
        }
      }
      for (const [key, value] of Object.entries(node)) {
        if (SKIPPED_KEYS.has(key)) continue;
        if (Array.isArray(value)) {
          for (const item of value) if (isNode(item)) stack.push(item);
        } else if (isNode(value)) {
          stack.push(value);
        }
      }
    }
    return false;
  };
  return search(expression, 0);
}

/** `b` in `a.b` (not computed) or a non-shorthand object key: a name, not a reference. */
const isPropertyKey = (node: EstreeNode): boolean => {
  const parent = node.parent as EstreeNode | undefined;
  if (!parent) return false;
  if (parent.type === 'MemberExpression') return parent.property === node && !parent.computed;
  if (parent.type === 'Property') return parent.key === node && !parent.computed && !parent.shorthand;
  return false;
};
