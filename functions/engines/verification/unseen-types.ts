import ts from 'typescript';

/**
 * A file checked alone sees none of the types it imports: they are errors, typed like `any`.
 * Most of the time that silences TypeScript, but in a few patterns it makes TypeScript report
 * what the whole project would not. The diagnostics those patterns produce are recognised here.
 */

/** The innermost node that `matches` and whose text contains `position`. */
const innermostAt = <T extends ts.Node>(
  sourceFile: ts.SourceFile,
  position: number,
  matches: (node: ts.Node) => node is T,
): T | undefined => {
  let found: T | undefined;
  const visit = (node: ts.Node): void => {
    if (position < node.getStart(sourceFile) || position >= node.end) return;
    if (matches(node)) found = node;
    ts.forEachChild(node, visit);
  };
  ts.forEachChild(sourceFile, visit);
  return found;
};

const isAny = (type: ts.Type): boolean => (type.flags & ts.TypeFlags.Any) !== 0;

/** The type of the outermost expression that starts at `start`. */
const expressionTypeAt = (sourceFile: ts.SourceFile, start: number, checker: ts.TypeChecker): ts.Type | undefined => {
  let found: ts.Expression | undefined;
  const visit = (node: ts.Node): void => {
    if (found || start < node.getStart(sourceFile) || start >= node.end) return;
    if (ts.isExpression(node) && node.getStart(sourceFile) === start) found = node;
    else ts.forEachChild(node, visit);
  };
  ts.forEachChild(sourceFile, visit);
  return found && checker.getTypeAtLocation(found);
};

/** The type whose member is said to be missing: `owner.member`, or `const { member } = owner`. */
const memberOwnerTypeAt = (sourceFile: ts.SourceFile, start: number, checker: ts.TypeChecker): ts.Type | undefined => {
  const access = innermostAt(sourceFile, start, ts.isPropertyAccessExpression);
  if (access && access.name.getStart(sourceFile) === start) return checker.getNonNullableType(checker.getTypeAtLocation(access.expression));
  const element = innermostAt(sourceFile, start, ts.isBindingElement);
  if (!element || !ts.isObjectBindingPattern(element.parent)) return undefined;
  const declaration = element.parent.parent;
  const source = ts.isVariableDeclaration(declaration) && declaration.initializer ? declaration.initializer : declaration;
  return checker.getNonNullableType(checker.getTypeAtLocation(source));
};

// A class or interface extending an imported one looks like one without a base: its inherited
// members are reported as missing (read, or given in an object literal) and its overrides as
// overriding nothing.
const missingMemberCodes = new Set([2339, 2551]); // Property 'x' does not exist on type 'T' (. Did you mean 'y'?)
const excessPropertyCodes = new Set([2353, 2561]); // Object literal may only specify known properties (. Did you mean...)
const overrideCodes = new Set([4112, 4113, 4117, 4121, 4122, 4123]); // `override` with no (such member in the) base class

const extendedExpressions = (declaration: ts.Declaration): ts.Expression[] =>
  ts.isClassLike(declaration) || ts.isInterfaceDeclaration(declaration)
    ? (declaration.heritageClauses ?? [])
        .filter((clause) => clause.token === ts.SyntaxKind.ExtendsKeyword)
        .flatMap((clause) => clause.types.map((type) => type.expression))
    : [];

/** True when the class or interface, or one of its ancestors declared in the file, extends something typed `any`. */
const hasUnseenBase = (checker: ts.TypeChecker, declaration: ts.Declaration, seen = new Set<ts.Declaration>()): boolean => {
  if (seen.has(declaration)) return false;
  seen.add(declaration);
  return extendedExpressions(declaration).some((expression) => {
    if (isAny(checker.getTypeAtLocation(expression))) return true;
    const declarations = checker.getSymbolAtLocation(expression)?.declarations ?? [];
    return declarations.some((base) => hasUnseenBase(checker, base, seen));
  });
};

/** Also `Pick<Imported, 'a'>` and the like: a type made from an unseen one. */
const typeHasUnseenBase = (checker: ts.TypeChecker, type: ts.Type): boolean =>
  [type, checker.getApparentType(type)]
    .flatMap((t) => (t.isUnionOrIntersection() ? t.types : [t]))
    .some(
      (t) =>
        (t.aliasTypeArguments ?? []).some(isAny) ||
        (t.getSymbol()?.declarations ?? []).some((declaration) => hasUnseenBase(checker, declaration)),
    );

const isAboutAnUnseenBase = (diagnostic: ts.Diagnostic, start: number, sourceFile: ts.SourceFile, checker: ts.TypeChecker): boolean => {
  if (overrideCodes.has(diagnostic.code)) {
    const owner = innermostAt(sourceFile, start, ts.isClassLike);
    return owner !== undefined && hasUnseenBase(checker, owner);
  }
  if (missingMemberCodes.has(diagnostic.code)) {
    const owner = memberOwnerTypeAt(sourceFile, start, checker);
    return owner !== undefined && typeHasUnseenBase(checker, owner);
  }
  if (excessPropertyCodes.has(diagnostic.code)) {
    const literal = innermostAt(sourceFile, start, ts.isObjectLiteralExpression);
    const target = literal && checker.getContextualType(literal);
    return target !== undefined && typeHasUnseenBase(checker, target);
  }
  return false;
};

// `unknown`, or an anonymous `{}`, is what is left of an unseen type after inference
// (`Object.values(imported)`) or narrowing (`error instanceof ImportedError`): diagnostics about
// them are dropped, at the cost of missing the few about an `unknown` the file declares itself.
const mentionsUnknown = /'[^']*\bunknown\b[^']*'/;
const arithmeticOperandCodes = new Set([2362, 2363]); // The left/right-hand side of an arithmetic operation must be...

const isInferredEmptyObject = (checker: ts.TypeChecker, type: ts.Type): boolean =>
  (type.flags & ts.TypeFlags.Object) !== 0 && type.getSymbol() === undefined && checker.getPropertiesOfType(type).length === 0;

const isAboutAnUnknown = (diagnostic: ts.Diagnostic, start: number, sourceFile: ts.SourceFile, checker: ts.TypeChecker): boolean => {
  if (mentionsUnknown.test(ts.flattenDiagnosticMessageText(diagnostic.messageText, ' '))) return true;
  if (missingMemberCodes.has(diagnostic.code)) {
    const owner = memberOwnerTypeAt(sourceFile, start, checker);
    return owner !== undefined && isInferredEmptyObject(checker, owner);
  }
  if (!arithmeticOperandCodes.has(diagnostic.code)) return false;
  const operand = innermostAt(sourceFile, start, ts.isExpression);
  return operand !== undefined && (checker.getTypeAtLocation(operand).flags & ts.TypeFlags.Unknown) !== 0;
};

// `keyof Imported` is `string | number | symbol`, which a template literal may not convert.
const isAboutAnUnseenKey = (diagnostic: ts.Diagnostic, start: number, sourceFile: ts.SourceFile, checker: ts.TypeChecker): boolean => {
  if (diagnostic.code !== 2731) return false; // Implicit conversion of a 'symbol' to a 'string' will fail at runtime.
  const type = expressionTypeAt(sourceFile, start, checker);
  const flags = type?.isUnion() ? type.types.reduce((all, t) => all | t.flags, 0) : 0;
  return (flags & ts.TypeFlags.String) !== 0 && (flags & ts.TypeFlags.Number) !== 0 && (flags & ts.TypeFlags.ESSymbol) !== 0;
};

// A type guard on an unseen type (`value is Imported`) narrows to `never` where it fails: what is
// then said about a `never` value comes from that.
const neverValueCodes = new Set([
  2339,
  2551, // Property 'x' does not exist on type 'never'.
  2349, // This expression is not callable.
  2358, // The left-hand side of an 'instanceof' expression must be of type 'any', an object type...
  2407, // The right-hand side of a 'for...in' statement must be of type 'any', an object type...
  2488,
  2504, // Type 'never' must have a '[Symbol.iterator]()' / '[Symbol.asyncIterator]()' method...
]);

const isAboutANeverValue = (diagnostic: ts.Diagnostic, start: number, sourceFile: ts.SourceFile, checker: ts.TypeChecker): boolean => {
  if (!neverValueCodes.has(diagnostic.code)) return false;
  const subject = missingMemberCodes.has(diagnostic.code)
    ? memberOwnerTypeAt(sourceFile, start, checker)
    : expressionTypeAt(sourceFile, start, checker);
  return subject !== undefined && (subject.flags & ts.TypeFlags.Never) !== 0;
};

// `let dir: string | undefined; dir = await mkdtemp(...)`: assigned an unseen (`any`) value, the
// variable is not narrowed and stays possibly undefined where the project knows it is not. Same
// with `const n = overloaded(unseen)`: with an `any` argument, another overload may be chosen.
const mentionsNullOrUndefined = /'[^']*\b(undefined|null)\b[^']*'/;

const assignmentOperators = new Set([
  ts.SyntaxKind.EqualsToken,
  ts.SyntaxKind.QuestionQuestionEqualsToken,
  ts.SyntaxKind.BarBarEqualsToken,
  ts.SyntaxKind.AmpersandAmpersandEqualsToken,
]);

const isTainted = (checker: ts.TypeChecker, value: ts.Expression): boolean => {
  if (isAny(checker.getTypeAtLocation(value))) return true;
  const call = ts.isAwaitExpression(value) ? value.expression : value;
  return (
    ts.isCallExpression(call) &&
    call.arguments.some((argument) => isAny(checker.getTypeAtLocation(argument))) &&
    checker.getTypeAtLocation(call.expression).getCallSignatures().length > 1
  );
};

/** Whether the variable's initializer, or an assignment to it earlier in the same function, is tainted. */
const hasTaintedValueBefore = (checker: ts.TypeChecker, sourceFile: ts.SourceFile, variable: ts.Symbol, position: number): boolean => {
  const declaration = variable.valueDeclaration;
  if (declaration && ts.isVariableDeclaration(declaration) && declaration.initializer && isTainted(checker, declaration.initializer))
    return true;
  const scope: ts.Node = innermostAt(sourceFile, position, ts.isFunctionLike) ?? sourceFile;
  let found = false;
  const visit = (node: ts.Node): void => {
    if (found || node.pos >= position) return;
    if (
      ts.isBinaryExpression(node) &&
      node.end <= position &&
      assignmentOperators.has(node.operatorToken.kind) &&
      ts.isIdentifier(node.left) &&
      checker.getSymbolAtLocation(node.left) === variable &&
      isTainted(checker, node.right)
    ) {
      found = true;
      return;
    }
    ts.forEachChild(node, visit);
  };
  ts.forEachChild(scope, visit);
  return found;
};

/** What a diagnostic at `start` is about: the value returned or given to a declaration, or the identifier there. */
const assignedExpressionAt = (sourceFile: ts.SourceFile, start: number): ts.Expression | undefined => {
  const statement = innermostAt(sourceFile, start, ts.isReturnStatement);
  if (statement && statement.getStart(sourceFile) === start) return statement.expression;
  const identifier = innermostAt(sourceFile, start, ts.isIdentifier);
  const parent = identifier?.parent;
  if (parent && (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) && parent.name === identifier)
    return parent.initializer;
  return identifier;
};

const isAboutAnUnseenAssignment = (
  diagnostic: ts.Diagnostic,
  start: number,
  sourceFile: ts.SourceFile,
  checker: ts.TypeChecker,
): boolean => {
  if (!mentionsNullOrUndefined.test(ts.flattenDiagnosticMessageText(diagnostic.messageText, ' '))) return false;
  const identifier = assignedExpressionAt(sourceFile, start);
  const variable = identifier && ts.isIdentifier(identifier) ? checker.getSymbolAtLocation(identifier) : undefined;
  return variable !== undefined && hasTaintedValueBefore(checker, sourceFile, variable, start);
};

// `assertNever(kind)` after a switch over an unseen union: `any` is not assignable to `never`.
const mentionsNever = /to (parameter of )?type 'never'/;

const isAnUnseenValueIntoNever = (
  diagnostic: ts.Diagnostic,
  start: number,
  sourceFile: ts.SourceFile,
  checker: ts.TypeChecker,
): boolean => {
  if (!mentionsNever.test(ts.flattenDiagnosticMessageText(diagnostic.messageText, ' '))) return false;
  const value = innermostAt(sourceFile, start, ts.isExpression);
  return value !== undefined && isAny(checker.getTypeAtLocation(value));
};

// A function that ends with a call of an unseen function (`process.exit()`, `assertNever()`) or a
// switch over an unseen union may well never reach its end; TypeScript cannot tell.
const reachableEndCodes = new Set([2366, 2534, 7030]); // lacks ending return / `never` with a reachable end / not all paths return

const endsInTheUnseen = (checker: ts.TypeChecker, body: ts.Block): boolean => {
  const last = body.statements[body.statements.length - 1];
  if (!last) return false;
  if (ts.isSwitchStatement(last)) return isAny(checker.getTypeAtLocation(last.expression));
  if (ts.isExpressionStatement(last) && ts.isCallExpression(last.expression))
    return isAny(checker.getTypeAtLocation(last.expression.expression));
  return false;
};

const isAboutAnUnseenEnd = (diagnostic: ts.Diagnostic, start: number, sourceFile: ts.SourceFile, checker: ts.TypeChecker): boolean => {
  if (!reachableEndCodes.has(diagnostic.code)) return false;
  const owner = innermostAt(sourceFile, start, ts.isFunctionLike);
  const body = owner && 'body' in owner ? owner.body : undefined;
  return body !== undefined && ts.isBlock(body) && endsInTheUnseen(checker, body);
};

export const isAboutUnseenTypes = (diagnostic: ts.Diagnostic, sourceFile: ts.SourceFile, checker: ts.TypeChecker): boolean => {
  const start = diagnostic.start;
  if (start === undefined) return false;
  return (
    isAboutAnUnseenBase(diagnostic, start, sourceFile, checker) ||
    isAboutAnUnknown(diagnostic, start, sourceFile, checker) ||
    isAboutAnUnseenAssignment(diagnostic, start, sourceFile, checker) ||
    isAnUnseenValueIntoNever(diagnostic, start, sourceFile, checker) ||
    isAboutANeverValue(diagnostic, start, sourceFile, checker) ||
    isAboutAnUnseenKey(diagnostic, start, sourceFile, checker) ||
    isAboutAnUnseenEnd(diagnostic, start, sourceFile, checker)
  );
};
