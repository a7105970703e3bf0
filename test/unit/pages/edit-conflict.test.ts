import { mergedAfterConflict, originalValuesOf } from '../../../functions/http/pages/edit-conflict';

describe('an edit form shown again after someone else saved first', () => {
  const current = { url: 'https://b.example/in', events: ['workflow.failed'], description: 'theirs' };

  it('keeps the fields this person changed and takes the others as they are now', () => {
    const original = { url: 'https://a.example/in', events: ['*'], description: '' };
    const sent = { url: 'https://a.example/new', events: ['*'], description: '' };
    expect(mergedAfterConflict(sent, original, current)).toEqual({
      url: 'https://a.example/new',
      events: ['workflow.failed'],
      description: 'theirs',
    });
  });

  it('reads a list in another order as unchanged, and a different list as this person’s', () => {
    const original = { url: 'u', events: ['a', 'b'], description: '' };
    expect(mergedAfterConflict({ ...original, events: ['b', 'a'] }, original, current).events).toEqual(['workflow.failed']);
    expect(mergedAfterConflict({ ...original, events: ['a'] }, original, current).events).toEqual(['a']);
  });

  it('without the original values, shows the record as it is now: nothing of the other change is overwritten', () => {
    expect(mergedAfterConflict({ url: 'x', events: [], description: 'mine' }, undefined, current)).toEqual(current);
  });

  it('reads the original values the form sent back, and nothing that is not an object of them', () => {
    expect(originalValuesOf(new URLSearchParams({ original: '{"name":"Shop"}' }))).toEqual({ name: 'Shop' });
    for (const value of ['', 'not json', '[1]', 'null', '"x"'])
      expect(originalValuesOf(new URLSearchParams({ original: value }))).toBeUndefined();
    expect(originalValuesOf(new URLSearchParams())).toBeUndefined();
  });
});
