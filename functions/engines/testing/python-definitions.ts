/**
 * The public top-level functions and classes of a Python module, read from the syntax tree of
 * Lezer's Python grammar (error-tolerant, so a file that does not parse still yields what it can):
 * `def`, `async def` and `class` statements, decorated or not, and `name = lambda …`, whose names do
 * not start with `_`. Definitions nested in functions, classes or blocks (`if`, `try`) are not the
 * module's for sure, and are left out.
 */
import { byName, type ExportKind, type FoundExport } from './found-export';

export type PythonDefinitionReader = (source: string) => FoundExport[];

type PythonParser = (typeof import('@lezer/python'))['parser'];

let loading: Promise<PythonParser> | undefined;

/** Loaded on first use, so that only a function that reads Python sources carries the grammar. */
const loadParser = (): Promise<PythonParser> => {
  loading ??= import('@lezer/python').then((module) => module.parser);
  loading.catch(() => (loading = undefined));
  return loading;
};

/** A reader of Python modules (the grammar loaded once, on the first call). */
export const pythonDefinitionReader = async (): Promise<PythonDefinitionReader> => {
  const parser = await loadParser();
  return (source) => {
    const found = new Map<string, ExportKind>();
    const add = (name: string, kind: ExportKind): void => {
      if (!name.startsWith('_') && !found.has(name)) found.set(name, kind);
    };
    const text = (node: { from: number; to: number } | null): string => (node ? source.slice(node.from, node.to) : '');
    for (let statement = parser.parse(source).topNode.firstChild; statement; statement = statement.nextSibling) {
      const definition = statement.name === 'DecoratedStatement' ? statement.lastChild : statement;
      if (definition?.name === 'FunctionDefinition') add(text(definition.getChild('VariableName')), 'function');
      else if (definition?.name === 'ClassDefinition') add(text(definition.getChild('VariableName')), 'class');
      else if (definition?.name === 'AssignStatement') {
        // `name = lambda …` (or `a = b = lambda …`): a function under each name.
        if (definition.lastChild?.name === 'LambdaExpression') {
          for (const target of definition.getChildren('VariableName')) add(text(target), 'function');
        }
      }
    }
    return byName(found);
  };
};
