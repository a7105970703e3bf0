import {
  credentialPrefixes,
  credentialTypes,
  generateCredentialValue,
  hashCredentialValue,
  parseCredentialValue,
  redactCredentialValue,
} from '../../functions/core/credentials/key-format';

/** The value with the character at `index` replaced by another character of the base62 alphabet. */
const withCharacterChanged = (value: string, index: number): string => {
  const at = index < 0 ? value.length + index : index;
  const replacement = value[at] === 'a' ? 'b' : 'a';
  return value.slice(0, at) + replacement + value.slice(at + 1);
};

describe('credential values', () => {
  it('carry their type and a checksum that refuses a mistyped value', () => {
    const value = generateCredentialValue('live');
    expect(value).toMatch(/^svc_live_[0-9A-Za-z]{36}$/);
    expect(parseCredentialValue(value)).toBe('live');
    const last = value.at(-8) === 'a' ? 'b' : 'a';
    expect(parseCredentialValue(value.slice(0, -8) + last + value.slice(-7))).toBeUndefined();
  });

  it('hash to a stable SHA-256', () => {
    expect(hashCredentialValue('x')).toBe('2d711642b726b04401627ca9fbac32f5c8530fb1903cc4db02258717921a4881');
  });

  it.each(credentialTypes)('round-trip for the %s type', (type) => {
    for (let i = 0; i < 20; i += 1) {
      const value = generateCredentialValue(type);
      expect(value.startsWith(credentialPrefixes[type])).toBe(true);
      expect(value.slice(credentialPrefixes[type].length)).toMatch(/^[0-9A-Za-z]{36}$/);
      expect(parseCredentialValue(value)).toBe(type);
    }
  });

  it('are refused when any one character of the body or the checksum changes', () => {
    const value = generateCredentialValue('test');
    for (let index = credentialPrefixes.test.length; index < value.length; index += 1) {
      expect(parseCredentialValue(withCharacterChanged(value, index))).toBeUndefined();
    }
  });

  it('are refused when truncated, extended, or moved to another prefix', () => {
    const value = generateCredentialValue('live');
    expect(parseCredentialValue(value.slice(0, -1))).toBeUndefined();
    expect(parseCredentialValue(value.slice(0, 20))).toBeUndefined();
    expect(parseCredentialValue(`${value}0`)).toBeUndefined();
    expect(parseCredentialValue(value.replace(credentialPrefixes.live, credentialPrefixes.test))).toBeUndefined();
  });

  it.each(['', 'svc_live_', 'sk_live_abc', 'not a key at all', `svc_live_${'-'.repeat(36)}`])('refuse the malformed value %p', (value) => {
    expect(parseCredentialValue(value)).toBeUndefined();
  });

  it('are not predictable: many values are all different', () => {
    const values = new Set(Array.from({ length: 1000 }, () => generateCredentialValue('pat')));
    expect(values.size).toBe(1000);
  });

  it('are redacted to their prefix and last four characters', () => {
    const value = generateCredentialValue('ro');
    expect(redactCredentialValue(value)).toBe(`svc_ro_…${value.slice(-4)}`);
  });
});
