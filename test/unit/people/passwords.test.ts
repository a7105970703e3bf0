import { passwordIssue } from '../../../functions/core/users/password-policy';
import { hashPassword, verifyPassword } from '../../../functions/core/users/passwords';

describe('passwords', () => {
  it('are stored as scrypt hashes that name their parameters, salted, never in clear', async () => {
    const first = await hashPassword('correct horse battery');
    const second = await hashPassword('correct horse battery');
    expect(first).toMatch(/^scrypt\$N=32768,r=8,p=3\$[\w-]{22}\$[\w-]{43}$/);
    expect(first).not.toContain('correct');
    expect(first).not.toBe(second);
    expect(await verifyPassword('correct horse battery', first)).toBe(true);
    expect(await verifyPassword('correct horse batterY', first)).toBe(false);
    expect(await verifyPassword('correct horse battery', 'not a hash')).toBe(false);
  });

  it('verify under the parameters stored with them, so the parameters can be raised later', async () => {
    const stored = (await hashPassword('an older password')).replace('N=32768,r=8,p=3', 'N=16384,r=8,p=1');
    // Same salt and key under other parameters: the key no longer matches, and nothing throws.
    expect(await verifyPassword('an older password', stored)).toBe(false);
  });

  it('are at least 10 characters, not among the common ones, not the e-mail', async () => {
    expect((await passwordIssue('short', 'a@b.test'))?.issue).toMatch(/at least 10/);
    expect((await passwordIssue('1234567890', 'a@b.test'))?.issue).toMatch(/common/);
    expect((await passwordIssue('Password123', 'a@b.test'))?.issue).toMatch(/common/);
    expect((await passwordIssue('QWERTYUIOP', 'a@b.test'))?.issue).toMatch(/common/);
    expect((await passwordIssue('alice.smith@example.com', 'Alice.Smith@example.com'))?.issue).toMatch(/e-mail/);
    expect((await passwordIssue('x'.repeat(257), 'a@b.test'))?.issue).toMatch(/at most 256/);
    expect(await passwordIssue('correct horse battery', 'a@b.test')).toBeUndefined();
    // Characters, not bytes: ten accented letters are ten characters.
    expect(await passwordIssue('éléphantéé', 'a@b.test')).toBeUndefined();
  });
});
