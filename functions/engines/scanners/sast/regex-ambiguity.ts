/**
 * A second opinion on `security/detect-unsafe-regex`, whose check (safe-regex: "star height > 1")
 * reports every nested repetition, bounded or not, ambiguous or not — e.g. the UUID pattern
 * `/^[\da-f]{8}(?:-[\da-f]{4}){3}-[\da-f]{12}$/` or the slug pattern `/^[a-z\d]+(?:-[a-z\d]+)*$/`,
 * which cannot backtrack catastrophically. On clean code that is mostly false alarms.
 *
 * Backtracking is exponential when, inside a large repetition R (unbounded, or at least
 * `LARGE_REPEAT` times), one string can be matched in several ways, so that the ways multiply
 * from one iteration of R to the next. `hasAmbiguousNestedRepetition` looks for a variable
 * repetition Q inside R's body such that
 *  (i)   what Q's next iteration may start with can also start a following variable part of the
 *        body (`(?:-\w+\w*)+`, `(\w+\s?\w+)*`);
 *  (ii)  Q (large) may end an iteration of R and R's next iteration may start with what Q
 *        consumes (`(a+)+`, `(\w+\s?)*`, `(?:a|b+)+`);
 *  (iii) Q (large) may start an iteration of R and consume what ends the previous one (`(.*a)+`).
 * A separator that Q cannot consume (`(?:-[a-z]+)*`), or a fixed element after Q (`[a-z-]{0,61}[a-z]`)
 * leaves one way only. It is a heuristic over first/last-character sets (look-arounds are skipped,
 * back-references count as any character); a pattern it cannot parse counts as ambiguous, so the
 * ESLint report is kept.
 */
import { parseRegExpLiteral, type AST } from '@eslint-community/regexpp';

/** Repetitions up to this many times are too short to matter. */
export const LARGE_REPEAT = 10;

/** A consuming element of the pattern (its raw text; null: any character) and whether a variable part of the pattern gives it. */
interface Atom {
  raw: string | null;
  flexible: boolean;
}

interface Edge {
  atoms: Atom[];
  nullable: boolean;
}

type Side = 'first' | 'last';

/** Code points tried when comparing two character sets: all of the first 768, then a spread, then some specials. */
const SAMPLE_CODE_POINTS: number[] = (() => {
  const points: number[] = [];
  for (let cp = 0; cp < 0x300; cp++) points.push(cp);
  for (let cp = 0x300; cp < 0x10000; cp += 17) points.push(cp);
  points.push(0x200b, 0x200d, 0x2028, 0x2029, 0x3000, 0xfeff, 0x1f600);
  return points;
})();

export function hasAmbiguousNestedRepetition(pattern: string, flags = ''): boolean {
  let literal: AST.RegExpLiteral;
  try {
    literal = parseRegExpLiteral(new RegExp(pattern, flags));
  } catch {
    return true;
  }
  const matchFlags = [...literal.flags.raw].filter((f) => 'iusv'.includes(f)).join('');
  const sets = new Map<string, Uint8Array | null>();
  const membership = (atom: Atom): Uint8Array | null => {
    if (atom.raw === null) return null;
    if (sets.has(atom.raw)) return sets.get(atom.raw) ?? null;
    let test: RegExp | null;
    try {
      test = new RegExp(`^(?:${atom.raw})$`, matchFlags);
    } catch {
      test = null;
    }
    let set: Uint8Array | null = null;
    if (test) {
      set = new Uint8Array(SAMPLE_CODE_POINTS.length);
      for (let i = 0; i < SAMPLE_CODE_POINTS.length; i++) set[i] = test.test(String.fromCodePoint(SAMPLE_CODE_POINTS[i]!)) ? 1 : 0;
    }
    sets.set(atom.raw, set);
    return set;
  };
  const overlaps = (a: readonly Atom[], b: readonly Atom[]): boolean => {
    for (const x of a) {
      for (const y of b) {
        const setX = membership(x);
        const setY = membership(y);
        if (!setX || !setY) return true;
        for (let i = 0; i < setX.length; i++) if (setX[i] && setY[i]) return true;
      }
    }
    return false;
  };

  const large = (q: AST.Quantifier): boolean => q.max >= LARGE_REPEAT;
  const quantifiers: AST.Quantifier[] = [];
  collectQuantifiers(literal.pattern, quantifiers);
  for (const outer of quantifiers) {
    if (!large(outer)) continue;
    const inner: AST.Quantifier[] = [];
    collectQuantifiers(outer.element, inner);
    const bodyFirst = edgeOf(outer.element, 'first').atoms;
    const bodyLast = edgeOf(outer.element, 'last').atoms;
    for (const q of inner) {
      if (q.max <= q.min) continue;
      const consumed = edgeOf(q.element, 'first').atoms;
      const follow = followWithin(q, outer);
      if (
        overlaps(
          consumed,
          follow.atoms.filter((a) => a.flexible),
        )
      )
        return true;
      if (!large(q)) continue;
      if (follow.reachesOuter && overlaps(consumed, bodyFirst)) return true;
      if (startsIteration(q, outer) && overlaps(consumed, bodyLast)) return true;
    }
  }
  return false;
}

/** Quantifiers under `node`, not inside look-arounds (they consume nothing). */
function collectQuantifiers(node: AST.Node, out: AST.Quantifier[]): void {
  switch (node.type) {
    case 'Pattern':
    case 'Group':
    case 'CapturingGroup':
      for (const alternative of node.alternatives) collectQuantifiers(alternative, out);
      return;
    case 'Alternative':
      for (const element of node.elements) collectQuantifiers(element, out);
      return;
    case 'Quantifier':
      out.push(node);
      collectQuantifiers(node.element, out);
      return;
    default:
      return;
  }
}

const flexible = (atoms: readonly Atom[]): Atom[] => atoms.map((a) => ({ raw: a.raw, flexible: true }));

/** What `node` may start (or end) with, and whether it may match the empty string. */
function edgeOf(node: AST.Node, side: Side): Edge {
  switch (node.type) {
    case 'Character':
    case 'CharacterClass':
    case 'CharacterSet':
    case 'ExpressionCharacterClass':
      return { atoms: [{ raw: node.raw, flexible: false }], nullable: false };
    case 'Backreference':
      return { atoms: [{ raw: null, flexible: true }], nullable: true };
    case 'Assertion':
      return { atoms: [], nullable: true };
    case 'Quantifier': {
      if (node.max === 0) return { atoms: [], nullable: true };
      const element = edgeOf(node.element, side);
      return { atoms: node.max > node.min ? flexible(element.atoms) : element.atoms, nullable: node.min === 0 || element.nullable };
    }
    case 'Pattern':
    case 'Group':
    case 'CapturingGroup': {
      const atoms: Atom[] = [];
      let nullable = false;
      for (const alternative of node.alternatives) {
        const edge = edgeOf(alternative, side);
        atoms.push(...edge.atoms);
        nullable ||= edge.nullable;
      }
      return { atoms: nullable ? flexible(atoms) : atoms, nullable };
    }
    case 'Alternative':
      return side === 'first' ? edgeOfSequence(node.elements.slice(), 'first') : edgeOfSequence(node.elements.slice().reverse(), 'last');
    default:
      return { atoms: [{ raw: null, flexible: true }], nullable: true };
  }
}

/** The edge of elements in the order they are met from that side. */
function edgeOfSequence(elements: readonly AST.Element[], side: Side): Edge {
  const atoms: Atom[] = [];
  for (const element of elements) {
    const edge = edgeOf(element, side);
    atoms.push(...(edge.nullable ? flexible(edge.atoms) : edge.atoms));
    if (!edge.nullable) return { atoms, nullable: false };
  }
  return { atoms, nullable: true };
}

/**
 * What may be consumed right after an iteration of `q` within `outer`'s body, and whether the
 * rest of the body may be empty (`reachesOuter`: `q` may end an iteration of `outer`).
 */
function followWithin(q: AST.Quantifier, outer: AST.Quantifier): { atoms: Atom[]; reachesOuter: boolean } {
  const atoms: Atom[] = [];
  let node: AST.Node = q;
  for (;;) {
    const parent: AST.Node | null = node.parent;
    if (!parent || parent === outer) return { atoms, reachesOuter: parent === outer };
    if (parent.type === 'Alternative') {
      const rest = edgeOfSequence(parent.elements.slice(parent.elements.indexOf(node as AST.Element) + 1), 'first');
      atoms.push(...rest.atoms);
      if (!rest.nullable) return { atoms, reachesOuter: false };
      node = parent.parent;
      if (node.type !== 'Group' && node.type !== 'CapturingGroup') return { atoms, reachesOuter: false };
    } else if (parent.type === 'Quantifier') {
      // An enclosing repetition's next iteration.
      if (parent.max > 1) atoms.push(...flexible(edgeOf(parent.element, 'first').atoms));
      node = parent;
    } else {
      return { atoms, reachesOuter: false };
    }
  }
}

/** Whether `q` may be the first thing an iteration of `outer` consumes. */
function startsIteration(q: AST.Quantifier, outer: AST.Quantifier): boolean {
  let node: AST.Node = q;
  for (;;) {
    const parent: AST.Node | null = node.parent;
    if (!parent) return false;
    if (parent === outer) return true;
    if (parent.type === 'Alternative') {
      const before = edgeOfSequence(parent.elements.slice(0, parent.elements.indexOf(node as AST.Element)).reverse(), 'last');
      if (!before.nullable) return false;
      node = parent.parent;
      if (node.type !== 'Group' && node.type !== 'CapturingGroup') return false;
    } else if (parent.type === 'Quantifier') {
      node = parent;
    } else {
      return false;
    }
  }
}
