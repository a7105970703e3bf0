import { EXCERPT_MAX_CHARS, excerptOf, normaliseCode } from '../../../../functions/engines/scanners/sast/snippet';

describe('sast snippet normalisation', () => {
  it.each([
    ['  eval(userInput);  ', 'eval(userInput);'],
    ["setTimeout('a()', 100);", 'setTimeout("S", 0);'],
    ['exec(`ls -la ${dir} | grep ${"x"}`);', 'exec(`S${dir}S${"S"}`);'],
    ['x = 0x1F + 1_000 + 2.5e3 + 10n;', 'x = 0 + 0 + 0 + 0;'],
    ['const sha256 = h(a1);  // note 42', 'const sha256 = h(a1);'],
    ['fn(  a,\tb  )', 'fn( a, b )'],
    ['if (/^https?:\\/\\//.test(url)) go(url); // remote', 'if (/^https?:\\/\\//.test(url)) go(url);'],
    ["el.innerHTML = '<b>' + \"it's\" + x;", 'el.innerHTML = "S" + "S" + x;'],
  ])('%s → %s', (line, expected) => {
    expect(normaliseCode(line)).toBe(expected);
  });

  it('tells different calls apart and treats literals alike', () => {
    expect(normaliseCode('exec(`ls ${dir}`)')).toBe(normaliseCode('exec(`rm -rf ${dir}`)'));
    expect(normaliseCode('exec(cmd)')).not.toBe(normaliseCode('spawn(cmd)'));
  });
});

describe('sast excerpt', () => {
  it('is the trimmed line, token-like literals masked', () => {
    expect(excerptOf('   if (apiKey === "sk_live_4eC39HqLyjWDarjtT1zdp7dc") return;')).toBe('if (apiKey === "***") return;');
    expect(excerptOf("  readFile('templates/index-page.html');")).toBe("readFile('templates/index-page.html');");
  });

  it('shows the part of a long line around the column, at most the cap', () => {
    const line = `${'a = 1; '.repeat(100)}eval(code);${' b = 2;'.repeat(100)}`;
    const excerpt = excerptOf(line, line.indexOf('eval') + 1);
    expect(excerpt).toContain('eval(code);');
    expect(excerpt.startsWith('…')).toBe(true);
    expect(excerpt.length).toBeLessThanOrEqual(EXCERPT_MAX_CHARS);
  });
});
