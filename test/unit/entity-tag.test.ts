import { ifNoneMatchHolds } from '../../functions/http/entity-tag';

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
