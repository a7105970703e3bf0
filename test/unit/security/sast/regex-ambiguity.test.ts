import { hasAmbiguousNestedRepetition } from '../../../../functions/engines/scanners/sast/regex-ambiguity';

const unsafe: RegExp[] = [
  /(a+)+$/,
  /(a*)*$/,
  /(\w+\s?)*$/,
  /(.*a)+$/,
  /(?:a|b+)+$/,
  /(\w+\s?\w+)*$/,
  /(x+x+)+y/,
  /^(\s*\w+)+$/,
  /^([a-zA-Z0-9])(([-.]|[_]+)?([a-zA-Z0-9]+))*(@){1}[a-z0-9]+[.]{1}(([a-z]{2,3})|([a-z]{2,3}[.]{1}[a-z]{2,3}))$/,
];

const safe: RegExp[] = [
  /^[\da-f]{8}(?:-[\da-f]{4}){3}-[\da-f]{12}$/iu,
  /^[\da-z]+(?:[-_][\da-z]+)*$/u,
  /^[\w+-]+(?:\.[\w+-]+)*@[\da-zA-Z]+(?:[.-][\da-zA-Z]+)*\.[a-zA-Z]{2,}$/u,
  /^(?=.{1,253}$)(?:(?![Xx][Nn]--)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/u,
  /^(?:\s*,\s*\w+)*$/,
  /^(\d{1,3}\.){3}\d{1,3}$/,
  /^([a-z]+-)+$/,
  /^(?:[a-z]+\/)*[a-z]+$/,
  /^(\w+)$/,
];

describe('ambiguous nested repetition (second opinion on detect-unsafe-regex)', () => {
  it.each(unsafe.map((r) => [r.source, r.flags]))('flags %s', (source, flags) => {
    expect(hasAmbiguousNestedRepetition(source, flags)).toBe(true);
  });

  it.each(safe.map((r) => [r.source, r.flags]))('clears %s', (source, flags) => {
    expect(hasAmbiguousNestedRepetition(source, flags)).toBe(false);
  });

  it('keeps the report when the pattern cannot be read', () => {
    expect(hasAmbiguousNestedRepetition('(a+', '')).toBe(true);
  });
});
