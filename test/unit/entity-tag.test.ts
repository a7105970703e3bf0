import { ifNoneMatchHolds } from '../../functions/http/entity-tag';
import { checkIfMatch, entityTagOf, ifMatchHolds } from '../../functions/core/preconditions';

const tag = '"9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"';

describe('If-None-Match against an entity tag', () => {
  it('holds for the same tag, a list naming it, its weak form and *', () => {
    expect(ifNoneMatchHolds(tag, tag)).toBe(true);
    expect(ifNoneMatchHolds(`"abc", ${tag}`, tag)).toBe(true);
    expect(ifNoneMatchHolds(`W/${tag}`, tag)).toBe(true);
    expect(ifNoneMatchHolds(' * ', tag)).toBe(true);
  });

  it('does not hold without the header, for another tag, or for the bare value without quotes', () => {
    expect(ifNoneMatchHolds(undefined, tag)).toBe(false);
    expect(ifNoneMatchHolds('"abc"', tag)).toBe(false);
    expect(ifNoneMatchHolds(tag.slice(1, -1), tag)).toBe(false);
    expect(ifNoneMatchHolds('', tag)).toBe(false);
  });
});

describe("a resource's entity tag", () => {
  it('is the same for the same fields in any order, and another once any field shows something else', () => {
    const project = { id: 'proj_1', name: 'Shop', events: ['a', 'b'], description: null };
    expect(entityTagOf(project)).toMatch(/^"[0-9a-f]{64}"$/);
    expect(entityTagOf({ description: null, events: ['a', 'b'], name: 'Shop', id: 'proj_1' })).toBe(entityTagOf(project));
    expect(entityTagOf({ ...project, name: 'shop' })).not.toBe(entityTagOf(project));
    expect(entityTagOf({ ...project, events: ['b', 'a'] })).not.toBe(entityTagOf(project));
    expect(entityTagOf({ ...project, description: '' })).not.toBe(entityTagOf(project));
  });
});

describe('If-Match against an entity tag', () => {
  it('holds for the same tag, a list naming it and *', () => {
    expect(ifMatchHolds(tag, tag)).toBe(true);
    expect(ifMatchHolds(`"abc" , ${tag}`, tag)).toBe(true);
    expect(ifMatchHolds('*', tag)).toBe(true);
  });

  it('does not hold for another tag, a weak tag (the strong comparison), the bare value or an empty header', () => {
    expect(ifMatchHolds('"abc"', tag)).toBe(false);
    expect(ifMatchHolds(`W/${tag}`, tag)).toBe(false);
    expect(ifMatchHolds(tag.slice(1, -1), tag)).toBe(false);
    expect(ifMatchHolds('', tag)).toBe(false);
  });

  it('refuses with 412 precondition_failed only when one was sent and names none of the current', () => {
    const current = { id: 'wh_1', active: true };
    expect(() => checkIfMatch(undefined, current)).not.toThrow();
    expect(() => checkIfMatch(entityTagOf(current), current)).not.toThrow();
    expect(() => checkIfMatch(entityTagOf({ ...current, active: false }), current)).toThrow(
      expect.objectContaining({ code: 'precondition_failed' }),
    );
  });
});
