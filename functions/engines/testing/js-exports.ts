/**
 * What a JavaScript or TypeScript source exports, read from the syntax tree TypeScript's parser
 * builds (`createSourceFile`: no program, no type checker, no other file read). The local
 * provider's smoke tests check that each export exists, that a function can be called and that a
 * class is a class, so an export whose kind the file alone cannot tell (an imported binding passed
 * on, a call's result) is a "value", which such a test cannot wrongly fail.
 *
 * - ES modules, at the top level: declarations with `export` (functions and their overloads,
 *   classes, abstract or decorated, variables and the names of destructuring patterns, enums,
 *   namespaces that hold values, `export import A = B.C`), `export default …`, export lists
 *   `export { a, b as c, d as "e-f", g as default }` (the kind looked up among the file's own
 *   declarations and imports), re-exports `export { x } from` and `export * as ns from` (values:
 *   the other module is not read; `export * from` names nothing that can be known here).
 *   What has no run-time value is left out: interfaces, type aliases, `declare`d things,
 *   `const enum`s, namespaces of types only, `export type …`, `export { type X }`.
 * - CommonJS, at any depth (UMD wrappers assign inside blocks and functions): `module.exports = { … }`
 *   (its keys), `module.exports = <expression>` (the module itself, named `module.exports`),
 *   `exports.x =`, `module.exports.x =`, `exports["x"] =`, `Object.defineProperty(exports, "x", …)`.
 *   A `void 0` placeholder (what TypeScript's CommonJS output assigns first) yields to a later
 *   assignment of the same name. TypeScript's `export = <expression>` is read as `module.exports =`.
 */
import type * as TS from 'typescript';
import { byName, type ExportKind, type FoundExport, wholeModule } from './found-export';

type TypeScript = typeof TS;

export interface JsModule {
  /** Sorted by name. */
  exports: FoundExport[];
  /** TypeScript's own test of a module (a top-level import or export), so `import * as m` of the file compiles. */
  isModule: boolean;
  /** The file ends in TypeScript's `export = …`: a CommonJS module, imported as `import m = require(…)`. */
  exportAssignment: boolean;
}

export type JsModuleReader = (path: string, source: string) => JsModule;

let loading: Promise<TypeScript> | undefined;

/**
 * TypeScript on first use. Loaded dynamically so that only a function that reads exports (the
 * testing worker) has it: the bundler drops the import from every function that cannot reach
 * it, and the functions that can ship TypeScript beside their bundle instead of bundling it.
 */
const loadTypeScript = (): Promise<TypeScript> => {
  loading ??= import('typescript').then((module) => module.default);
  loading.catch(() => (loading = undefined));
  return loading;
};

/** A reader of JavaScript and TypeScript modules (TypeScript loaded once, on the first call). */
export const jsModuleReader = async (): Promise<JsModuleReader> => {
  const ts = await loadTypeScript();
  return (path, source) => readJsModule(ts, path, source);
};

type LocalKind = ExportKind | 'type';

/** What a top-level name of the file holds: a known kind, or an initializer still to classify. */
type Binding = LocalKind | TS.Expression;

const scriptKindOf = (ts: TypeScript, path: string): TS.ScriptKind => {
  if (/\.tsx$/i.test(path)) return ts.ScriptKind.TSX;
  if (/\.[cm]?ts$/i.test(path)) return ts.ScriptKind.TS;
  if (/\.jsx$/i.test(path)) return ts.ScriptKind.JSX;
  // JavaScript: TypeScript's parser reads JSX in it too.
  return ts.ScriptKind.JS;
};

const readJsModule = (ts: TypeScript, path: string, source: string): JsModule => {
  const file = ts.createSourceFile(path, source, ts.ScriptTarget.Latest, false, scriptKindOf(ts, path));

  const hasModifier = (node: TS.Node, kind: TS.SyntaxKind): boolean =>
    ts.canHaveModifiers(node) && (ts.getModifiers(node)?.some((modifier) => modifier.kind === kind) ?? false);
  const isAmbient = (node: TS.Node): boolean => hasModifier(node, ts.SyntaxKind.DeclareKeyword);

  /** Whether a namespace body emits an object at run time (TypeScript emits none for types only). */
  const holdsValues = (body: TS.ModuleBody | undefined): boolean => {
    if (body === undefined) return false;
    if (ts.isModuleDeclaration(body)) return holdsValues(body.body);
    if (!ts.isModuleBlock(body)) return false;
    return body.statements.some((statement) => declarations(statement).some(([, kind]) => kind !== 'type'));
  };

  const boundNames = (name: TS.BindingName): string[] =>
    ts.isIdentifier(name)
      ? [name.text]
      : name.elements.flatMap((element) => (ts.isOmittedExpression(element) ? [] : boundNames(element.name)));

  /** The names a statement declares in its scope, with what each holds. */
  const declarations = (statement: TS.Statement): Array<[string, Binding]> => {
    const ambient = isAmbient(statement);
    if (ts.isFunctionDeclaration(statement)) return statement.name ? [[statement.name.text, ambient ? 'type' : 'function']] : [];
    if (ts.isClassDeclaration(statement)) return statement.name ? [[statement.name.text, ambient ? 'type' : 'class']] : [];
    if (ts.isVariableStatement(statement)) {
      return statement.declarationList.declarations.flatMap((declaration): Array<[string, Binding]> => {
        if (ambient) return boundNames(declaration.name).map((name) => [name, 'type']);
        if (ts.isIdentifier(declaration.name)) return [[declaration.name.text, declaration.initializer ?? 'value']];
        return boundNames(declaration.name).map((name) => [name, 'value']);
      });
    }
    if (ts.isEnumDeclaration(statement))
      return [[statement.name.text, ambient || hasModifier(statement, ts.SyntaxKind.ConstKeyword) ? 'type' : 'value']];
    if (ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement)) return [[statement.name.text, 'type']];
    if (ts.isModuleDeclaration(statement)) {
      if (!ts.isIdentifier(statement.name)) return [];
      return [[statement.name.text, !ambient && holdsValues(statement.body) ? 'value' : 'type']];
    }
    if (ts.isImportEqualsDeclaration(statement)) return [[statement.name.text, statement.isTypeOnly ? 'type' : 'value']];
    if (ts.isImportDeclaration(statement)) {
      const clause = statement.importClause;
      if (clause === undefined) return [];
      const typeOnly = clause.phaseModifier === ts.SyntaxKind.TypeKeyword;
      const names: Array<[string, Binding]> = clause.name ? [[clause.name.text, typeOnly ? 'type' : 'value']] : [];
      const bindings = clause.namedBindings;
      if (bindings && ts.isNamespaceImport(bindings)) names.push([bindings.name.text, typeOnly ? 'type' : 'value']);
      if (bindings && ts.isNamedImports(bindings)) {
        for (const element of bindings.elements) names.push([element.name.text, typeOnly || element.isTypeOnly ? 'type' : 'value']);
      }
      return names;
    }
    return [];
  };

  const locals = new Map<string, Binding>();
  for (const statement of file.statements) {
    for (const [name, binding] of declarations(statement)) {
      // Overloads and a namespace merged into a function or class keep the first kind; a value
      // beside a type of the same name (`interface A {}` and `const A = …`) is the value.
      if (!locals.has(name) || locals.get(name) === 'type') locals.set(name, binding);
    }
  }

  const unwrapped = (expression: TS.Expression): TS.Expression => {
    let current = expression;
    while (
      ts.isParenthesizedExpression(current) ||
      ts.isAsExpression(current) ||
      ts.isSatisfiesExpression(current) ||
      ts.isTypeAssertionExpression(current) ||
      ts.isNonNullExpression(current)
    )
      current = current.expression;
    return current;
  };

  /** What an expression evaluates to, as far as the file tells; `seen` stops `const a = b, b = a`. */
  const kindOf = (expression: TS.Expression, seen: Set<string> = new Set()): ExportKind => {
    const inner = unwrapped(expression);
    if (ts.isFunctionExpression(inner) || ts.isArrowFunction(inner)) return 'function';
    if (ts.isClassExpression(inner)) return 'class';
    if (ts.isIdentifier(inner)) {
      const local = localKind(inner.text, seen);
      return local === 'function' || local === 'class' ? local : 'value';
    }
    return 'value';
  };

  function localKind(name: string, seen: Set<string> = new Set()): LocalKind | undefined {
    const binding = locals.get(name);
    if (binding === undefined || typeof binding === 'string') return binding;
    if (seen.has(name)) return 'value';
    seen.add(name);
    return kindOf(binding, seen);
  }

  const found = new Map<string, ExportKind>();
  const add = (name: string, kind: ExportKind): void => {
    if (!found.has(name)) found.set(name, kind);
  };

  // ---- CommonJS: assignments anywhere ----
  const placeholders = new Set<string>();
  /** The first assignment of a name wins, except that a placeholder yields to a later real value. */
  const addCommonJs = (name: string, kind: ExportKind, placeholder = false): void => {
    if (name === '__esModule' || (found.has(name) && (placeholder || !placeholders.has(name)))) return;
    found.set(name, kind);
    if (placeholder) placeholders.add(name);
    else placeholders.delete(name);
  };
  const assignCommonJs = (name: string, value: TS.Expression | undefined): void =>
    value === undefined ? addCommonJs(name, 'value') : addCommonJs(name, kindOf(value), isPlaceholder(value));

  /** `void 0`, `undefined`, or a chain of assignments ending in one: `exports.a = exports.b = void 0`. */
  function isPlaceholder(expression: TS.Expression): boolean {
    const inner = unwrapped(expression);
    if (ts.isVoidExpression(inner) || (ts.isIdentifier(inner) && inner.text === 'undefined')) return true;
    return ts.isBinaryExpression(inner) && inner.operatorToken.kind === ts.SyntaxKind.EqualsToken && isPlaceholder(inner.right);
  }

  const isModuleExports = (node: TS.Node): boolean =>
    ts.isPropertyAccessExpression(node) &&
    ts.isIdentifier(node.expression) &&
    node.expression.text === 'module' &&
    node.name.text === 'exports';
  const isExportsObject = (node: TS.Node): boolean => (ts.isIdentifier(node) && node.text === 'exports') || isModuleExports(node);

  const literalName = (node: TS.Node): string | undefined =>
    ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isNumericLiteral(node) ? node.text : undefined;

  const propertyName = (name: TS.PropertyName): string | undefined => {
    if (ts.isIdentifier(name)) return name.text;
    if (ts.isComputedPropertyName(name)) return literalName(name.expression);
    if (ts.isPrivateIdentifier(name)) return undefined;
    return literalName(name);
  };

  /** `module.exports = { a, b: …, c() {}, get d() {} }`: its keys; anything else is the module itself. */
  function assignModuleExports(value: TS.Expression): void {
    const inner = unwrapped(value);
    if (!ts.isObjectLiteralExpression(inner)) {
      assignCommonJs(wholeModule, value);
      return;
    }
    for (const property of inner.properties) {
      if (ts.isShorthandPropertyAssignment(property)) assignCommonJs(property.name.text, property.name);
      else if (ts.isSpreadAssignment(property)) continue;
      else {
        const name = propertyName(property.name);
        if (name === undefined || name === '__proto__') continue;
        if (ts.isPropertyAssignment(property)) assignCommonJs(name, property.initializer);
        else addCommonJs(name, ts.isMethodDeclaration(property) ? 'function' : 'value');
      }
    }
  }

  /** The exported name an assignment target names: `exports.x`, `module.exports.x`, `exports["x"]`. */
  const exportedNameOf = (target: TS.Expression): string | undefined => {
    if (ts.isPropertyAccessExpression(target) && isExportsObject(target.expression) && ts.isIdentifier(target.name))
      return target.name.text;
    if (ts.isElementAccessExpression(target) && isExportsObject(target.expression)) return literalName(target.argumentExpression);
    return undefined;
  };

  const visit = (node: TS.Node): void => {
    if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.EqualsToken) {
      const target = unwrapped(node.left);
      if (isModuleExports(target)) assignModuleExports(node.right);
      else {
        const name = exportedNameOf(target);
        if (name !== undefined) assignCommonJs(name, node.right);
      }
    } else if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      ts.isIdentifier(node.expression.expression) &&
      node.expression.expression.text === 'Object' &&
      node.expression.name.text === 'defineProperty' &&
      node.arguments[0] !== undefined &&
      isExportsObject(node.arguments[0])
    ) {
      const name = node.arguments[1] === undefined ? undefined : literalName(node.arguments[1]);
      const descriptor = node.arguments[2] === undefined ? undefined : unwrapped(node.arguments[2]);
      const value =
        descriptor && ts.isObjectLiteralExpression(descriptor)
          ? descriptor.properties.find(
              (property): property is TS.PropertyAssignment => ts.isPropertyAssignment(property) && propertyName(property.name) === 'value',
            )?.initializer
          : undefined;
      if (name !== undefined) assignCommonJs(name, value);
    }
    ts.forEachChild(node, visit);
  };

  // ---- ES modules: top-level statements ----
  let exportAssignment = false;
  for (const statement of file.statements) {
    if (ts.isExportAssignment(statement)) {
      if (statement.isExportEquals) {
        exportAssignment = true;
        assignModuleExports(statement.expression);
      } else add('default', kindOf(statement.expression));
    } else if (ts.isExportDeclaration(statement)) {
      if (statement.isTypeOnly) continue;
      const clause = statement.exportClause;
      const reexport = statement.moduleSpecifier !== undefined;
      if (clause && ts.isNamespaceExport(clause)) add(clause.name.text, 'value');
      if (clause && ts.isNamedExports(clause)) {
        for (const element of clause.elements) {
          if (element.isTypeOnly) continue;
          const local = (element.propertyName ?? element.name).text;
          const kind = reexport ? 'value' : (localKind(local) ?? 'value');
          if (kind !== 'type') add(element.name.text, kind);
        }
      }
    } else if (hasModifier(statement, ts.SyntaxKind.ExportKeyword)) {
      if (hasModifier(statement, ts.SyntaxKind.DefaultKeyword)) {
        // `export default function () {}` / `export default class Named {}` (an interface has no value).
        const kind = ts.isFunctionDeclaration(statement) ? 'function' : ts.isClassDeclaration(statement) ? 'class' : 'type';
        if (kind !== 'type' && !isAmbient(statement)) add('default', kind);
      } else {
        for (const [name, binding] of declarations(statement)) {
          const kind = typeof binding === 'string' ? binding : kindOf(binding);
          if (kind !== 'type') add(name, kind);
        }
      }
    }
  }

  visit(file);

  return { exports: byName(found), isModule: ts.isExternalModule(file), exportAssignment };
};
