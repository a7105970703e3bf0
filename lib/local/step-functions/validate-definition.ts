import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/** asl-validator is CommonJS without typings; this is the part of its API used here. */
type AslValidator = (
  definition: unknown,
  options: { checkPaths: boolean; checkArn: boolean },
) => { isValid: boolean; errors: Array<{ 'Error code': string; Message: string }> };

const aslValidator = createRequire(import.meta.url)('asl-validator') as AslValidator;

export interface DefinitionValidation {
  valid: boolean;
  /** One line per problem, e.g. "MISSING_TRANSITION_TARGET: State Build is missing a transition target". */
  errors: string[];
}

/** `${Name}` as CloudFormation's DefinitionSubstitutions (CDK `definitionSubstitutions`) replaces it. */
const placeholderPattern = /\$\{([^}\s]+)\}/g;

export interface Substituted {
  text: string;
  /** Placeholders left in the text because no substitution names them. */
  unresolved: string[];
}

export const substitutePlaceholders = (text: string, substitutions: Record<string, string>): Substituted => {
  const unresolved = new Set<string>();
  const substituted = text.replace(placeholderPattern, (placeholder, name: string) => {
    const value = substitutions[name];
    if (value === undefined) {
      unresolved.add(name);
      return placeholder;
    }
    // Escaped for a JSON string, where every placeholder of an ASL file sits.
    return JSON.stringify(value).slice(1, -1);
  });
  return { text: substituted, unresolved: [...unresolved] };
};

export const validateDefinition = (definition: unknown): DefinitionValidation => {
  // The validator writes default QueryLanguage fields into what it checks: it gets a copy.
  const result = aslValidator(structuredClone(definition), { checkPaths: true, checkArn: true });
  return { valid: result.isValid, errors: result.errors.map((error) => `${error['Error code']}: ${error.Message}`) };
};

interface ParsedDefinition {
  definition?: unknown;
  errors: string[];
}

/**
 * Reads, substitutes and validates one ASL file. Without substitutions the placeholders stay as they
 * are (asl-validator accepts a whole-string `${Name}` as a Resource), so the CDK side can check a
 * file before it knows the function ARNs.
 */
const parseDefinitionFile = (path: string, substitutions?: Record<string, string>): ParsedDefinition => {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    return { errors: [`cannot read ${path}: ${(error as Error).message}`] };
  }
  const errors: string[] = [];
  if (substitutions) {
    const substituted = substitutePlaceholders(text, substitutions);
    text = substituted.text;
    errors.push(...substituted.unresolved.map((name) => `UNRESOLVED_PLACEHOLDER: no substitution for \${${name}}`));
  }
  let definition: unknown;
  try {
    definition = JSON.parse(text);
  } catch (error) {
    return { errors: [...errors, `INVALID_JSON: ${(error as Error).message}`] };
  }
  errors.push(...validateDefinition(definition).errors);
  return { definition, errors };
};

export const validateDefinitionFile = (path: string, substitutions?: Record<string, string>): DefinitionValidation => {
  const { errors } = parseDefinitionFile(path, substitutions);
  return { valid: errors.length === 0, errors };
};

export class InvalidDefinitionError extends Error {
  override readonly name = 'InvalidDefinitionError';
  constructor(
    readonly path: string,
    readonly problems: string[],
  ) {
    super(`State machine definition ${path} is invalid:\n  ${problems.join('\n  ')}`);
  }
}

/** The substituted definition, or an InvalidDefinitionError listing every problem. */
export const loadDefinitionFile = (path: string, substitutions: Record<string, string>): unknown => {
  const { definition, errors } = parseDefinitionFile(path, substitutions);
  if (errors.length > 0 || definition === undefined) throw new InvalidDefinitionError(path, errors);
  return definition;
};
