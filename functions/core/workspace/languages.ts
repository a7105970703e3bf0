/** Programming and markup languages by file extension; data formats (json, yaml, lock files) are not languages. */
const languageByExtension = new Map<string, string>(
  Object.entries({
    ts: 'TypeScript',
    tsx: 'TypeScript',
    mts: 'TypeScript',
    cts: 'TypeScript',
    js: 'JavaScript',
    jsx: 'JavaScript',
    mjs: 'JavaScript',
    cjs: 'JavaScript',
    py: 'Python',
    go: 'Go',
    rs: 'Rust',
    java: 'Java',
    kt: 'Kotlin',
    kts: 'Kotlin',
    scala: 'Scala',
    groovy: 'Groovy',
    rb: 'Ruby',
    php: 'PHP',
    cs: 'C#',
    fs: 'F#',
    c: 'C',
    h: 'C',
    cc: 'C++',
    cpp: 'C++',
    cxx: 'C++',
    hpp: 'C++',
    swift: 'Swift',
    m: 'Objective-C',
    dart: 'Dart',
    ex: 'Elixir',
    exs: 'Elixir',
    erl: 'Erlang',
    hs: 'Haskell',
    clj: 'Clojure',
    lua: 'Lua',
    r: 'R',
    jl: 'Julia',
    pl: 'Perl',
    sh: 'Shell',
    bash: 'Shell',
    zsh: 'Shell',
    ps1: 'PowerShell',
    sql: 'SQL',
    html: 'HTML',
    htm: 'HTML',
    css: 'CSS',
    scss: 'SCSS',
    sass: 'Sass',
    less: 'Less',
    vue: 'Vue',
    svelte: 'Svelte',
    tf: 'HCL',
    hcl: 'HCL',
    zig: 'Zig',
    nim: 'Nim',
    ml: 'OCaml',
    sol: 'Solidity',
  }),
);

export const languageOf = (path: string): string | null => {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return null;
  return languageByExtension.get(name.slice(dot + 1).toLowerCase()) ?? null;
};

/** The languages of these files, most files first (ties by name, so the order is stable). */
export const languagesOf = (paths: readonly string[]): string[] => {
  const counts = new Map<string, number>();
  for (const path of paths) {
    const language = languageOf(path);
    if (language) counts.set(language, (counts.get(language) ?? 0) + 1);
  }
  return [...counts.entries()]
    .sort(([a, countA], [b, countB]) => countB - countA || (a < b ? -1 : a > b ? 1 : 0))
    .map(([language]) => language);
};
