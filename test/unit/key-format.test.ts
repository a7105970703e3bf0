import { generateCredentialValue, hashCredentialValue, parseCredentialValue } from '../../functions/core/credentials/key-format';

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
});
