import { idAfter, isId, newId } from '../../functions/core/ids';

describe('idAfter', () => {
  it('is the smallest id that sorts after the given one', () => {
    expect(idAfter('evt_01JD2Q9R7W3T0N8M4K6H5G2F1E')).toBe('evt_01JD2Q9R7W3T0N8M4K6H5G2F1F');
    expect(idAfter('evt_01JD2Q9R7W3T0N8M4K6H5G2F1Z')).toBe('evt_01JD2Q9R7W3T0N8M4K6H5G2F20');
    expect(idAfter('evt_01JD2Q9R7W3T0N8M4K6H5GZZZZ')).toBe('evt_01JD2Q9R7W3T0N8M4K6H5H0000');
    expect(idAfter(`evt_7${'Z'.repeat(25)}`)).toBe(`evt_8${'0'.repeat(25)}`);
    expect(idAfter(`evt_${'Z'.repeat(26)}`)).toBeUndefined();
  });

  it('keeps ids well formed and in order for any id', () => {
    for (let i = 0; i < 200; i += 1) {
      const id = newId('event', Date.now() - i * 997);
      const next = idAfter(id) as string;
      expect(isId('event', next)).toBe(true);
      expect(next > id).toBe(true);
      expect(next.length).toBe(id.length);
    }
  });
});
