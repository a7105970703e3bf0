import { type PythonDefinitionReader, pythonDefinitionReader } from '../../../functions/engines/testing/python-definitions';

let read: PythonDefinitionReader;
beforeAll(async () => {
  read = await pythonDefinitionReader();
});

describe('Python definitions', () => {
  it('finds public top-level functions and classes, not nested, private or quoted ones', () => {
    const source = [
      '"""Module.',
      'def in_docstring():',
      '"""',
      '# def in_comment():',
      'import os',
      '',
      'def public(a):',
      '    def nested():',
      '        pass',
      '    return a',
      '',
      'async def coroutine():',
      '    pass',
      '',
      'def _private():',
      '    pass',
      '',
      'class Model(Base):',
      '    def method(self):',
      '        pass',
      '',
      'class Plain:',
      '    pass',
      '',
      'class _Hidden:',
      '    pass',
      "TEXT = '''",
      'def in_string():',
      "'''",
    ].join('\n');
    expect(read(source)).toEqual([
      { name: 'Model', kind: 'class' },
      { name: 'Plain', kind: 'class' },
      { name: 'coroutine', kind: 'function' },
      { name: 'public', kind: 'function' },
    ]);
  });

  it('reads what the line patterns missed: decorators, generics, continuations, lambdas, f-strings', () => {
    const source = [
      'import functools',
      '',
      '@functools.cache',
      'def cached(n):',
      '    return n',
      '',
      '@dataclass(frozen=True)',
      'class Point:',
      '    x: int',
      '',
      'class Box[T]:',
      '    item: T',
      '',
      'def first[T](items: list[T]) -> T:',
      '    return items[0]',
      '',
      'def \\',
      '        continued():',
      '    pass',
      '',
      'double = lambda n: n * 2',
      'square: Callable[[int], int] = lambda n: n * n',
      'left = right = lambda: None',
      '_hidden = lambda: None',
      'LABEL = f"{\'def in_fstring():\'}"',
      '',
      'if TYPE_CHECKING:',
      '    def only_for_types(): ...',
      '',
      'try:',
      '    from fast import speed',
      'except ImportError:',
      '    def speed(): ...',
    ].join('\n');
    expect(read(source)).toEqual([
      { name: 'Box', kind: 'class' },
      { name: 'Point', kind: 'class' },
      { name: 'cached', kind: 'function' },
      { name: 'continued', kind: 'function' },
      { name: 'double', kind: 'function' },
      { name: 'first', kind: 'function' },
      { name: 'left', kind: 'function' },
      { name: 'right', kind: 'function' },
      { name: 'square', kind: 'function' },
    ]);
  });

  it('reads a module that does not parse as far as it can, without throwing', () => {
    expect(read('def broken(:\n    pass\n\ndef fine():\n    pass\n').map((found) => found.name)).toContain('fine');
    expect(read('')).toEqual([]);
  });
});
