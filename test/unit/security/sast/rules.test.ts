import { builtinRules } from 'eslint/use-at-your-own-risk';
import securityPlugin from 'eslint-plugin-security';
import {
  enabledRules,
  excludedRules,
  noUnsanitized,
  ruleInfo,
  ruleTable,
  security,
} from '../../../../functions/engines/scanners/sast/rules';

describe('sast rule selection', () => {
  it('enables exactly the rules of the table, each of which exists', () => {
    expect(Object.keys(enabledRules).sort()).toEqual(Object.keys(ruleTable).sort());
    for (const id of Object.keys(ruleTable)) {
      const [plugin, name] = id.includes('/') ? id.split('/') : [null, id];
      if (plugin === 'security') expect(security.rules?.[name!]).toBeDefined();
      else if (plugin === 'no-unsanitized') expect(noUnsanitized.rules?.[name!]).toBeDefined();
      else expect(builtinRules.get(id)).toBeDefined();
    }
  });

  it('decides on every rule of eslint-plugin-security: enabled or excluded with a reason', () => {
    const recommended = Object.keys(
      securityPlugin.configs?.recommended && 'rules' in securityPlugin.configs.recommended
        ? (securityPlugin.configs.recommended.rules ?? {})
        : {},
    );
    expect(recommended.length).toBeGreaterThan(10);
    for (const id of recommended) expect([id, id in ruleTable || id in excludedRules]).toEqual([id, true]);
    for (const id of Object.keys(excludedRules)) expect(id in enabledRules).toBe(false);
  });

  it('rates the issues the way the table says', () => {
    expect(ruleInfo('no-eval', 'eval can be harmful.')?.severity).toBe('high');
    expect(ruleInfo('no-unsanitized/property', 'Unsafe assignment to innerHTML')?.severity).toBe('high');
    expect(ruleInfo('no-unsanitized/method', 'Unsafe call to document.write for argument 0')?.severity).toBe('high');
    expect(ruleInfo('no-unsanitized/method', 'Unsafe call to import for argument 0')?.severity).toBe('medium');
    expect(ruleInfo('security/detect-child-process', '')?.severity).toBe('medium');
    expect(ruleInfo('security/detect-new-buffer', '')?.severity).toBe('low');
    expect(ruleInfo('security/detect-object-injection', '')).toBeUndefined();
  });
});
