import type { Command, CommandGroup } from './command';

/** Shell completion scripts, generated from the command table so they always match it. */

const globalOptions = ['--api-key', '--api-url', '--json', '--help'];

const optionsOf = (command: Command) => [...Object.keys(command.options ?? {}).map((name) => `--${name}`), ...globalOptions];

export const bashCompletion = (groups: CommandGroup[], topLevel: Record<string, Command>, adminWords: string[]): string => {
  const cases = groups
    .flatMap((group) =>
      Object.entries(group.commands).map(([name, command]) => `    "${group.name} ${name}") opts="${optionsOf(command).join(' ')}" ;;`),
    )
    .concat(Object.entries(topLevel).map(([name, command]) => `    "${name}") opts="${optionsOf(command).join(' ')}" ;;`));
  const subcommands = groups.map(
    (group) => `    ${group.name}) COMPREPLY=($(compgen -W "${Object.keys(group.commands).join(' ')}" -- "$cur")); return ;;`,
  );
  return `# bash completion for the Project Automation Service CLI, as the shell function "pas" the README defines.
# Install: pas completion bash > ~/.local/share/bash-completion/completions/pas (or source it from ~/.bashrc)
_pas_complete() {
  local cur words cword
  cur="\${COMP_WORDS[COMP_CWORD]}"
  words=("\${COMP_WORDS[@]:1}")
  cword=$((COMP_CWORD - 1))
  if [ "$cword" -le 0 ]; then
    COMPREPLY=($(compgen -W "${[...groups.map((g) => g.name), ...Object.keys(topLevel), ...adminWords].join(' ')}" -- "$cur"))
    return
  fi
  if [ "$cword" -eq 1 ]; then
    case "\${words[0]}" in
${subcommands.join('\n')}
    esac
  fi
  local opts=""
  case "\${words[0]} \${words[1]}" in
${cases.join('\n')}
  esac
  if [ -z "$opts" ]; then
    case "\${words[0]}" in
${Object.entries(topLevel)
  .map(([name, command]) => `      ${name}) opts="${optionsOf(command).join(' ')}" ;;`)
  .join('\n')}
    esac
  fi
  COMPREPLY=($(compgen -W "$opts" -- "$cur"))
}
complete -F _pas_complete pas
`;
};

const zshEscape = (text: string) => text.replace(/'/g, "'\\''").replace(/:/g, '\\:').replace(/\[/g, '\\[').replace(/\]/g, '\\]');

const zshOptions = (command: Command) =>
  [
    ...Object.entries(command.options ?? {}).map(([name, spec]) => {
      const values = spec.values ? `:${name}:(${spec.values.join(' ')})` : spec.type === 'string' ? `:${name}:` : '';
      return `'--${name}[${zshEscape(spec.description)}]${values}'`;
    }),
    "'--api-key[API key (default \\$SERVICE_API_KEY)]:key:'",
    "'--api-url[API URL with /v1 (default \\$SERVICE_API_URL)]:url:'",
    "'--json[print JSON]'",
    "'--help[show help]'",
  ].join(' ');

export const zshCompletion = (groups: CommandGroup[], topLevel: Record<string, Command>, adminWords: string[]): string => {
  const top = [
    ...groups.map((g) => `'${g.name}:${zshEscape(g.summary)}'`),
    ...Object.entries(topLevel).map(([name, c]) => `'${name}:${zshEscape(c.summary)}'`),
    ...adminWords.map((w) => `'${w}:admin command (works on the table)'`),
  ];
  const groupCases = groups.map(
    (group) => `    ${group.name})
      if (( CURRENT == 3 )); then
        subs=(${Object.entries(group.commands)
          .map(([name, c]) => `'${name}:${zshEscape(c.summary)}'`)
          .join(' ')})
        _describe 'command' subs
        return
      fi
      local sub=$words[3]
      shift 2 words
      (( CURRENT -= 2 ))
      case $sub in
${Object.entries(group.commands)
  .map(([name, command]) => `        ${name}) _arguments -s ${zshOptions(command)} '*::argument:' ;;`)
  .join('\n')}
      esac ;;`,
  );
  const topCases = Object.entries(topLevel).map(
    ([name, command]) => `    ${name})
      shift words
      (( CURRENT-- ))
      _arguments -s ${zshOptions(command)} '*::argument:' ;;`,
  );
  return `#compdef pas
# zsh completion for the Project Automation Service CLI, as the shell function "pas" the README defines.
# Install: pas completion zsh > "\${fpath[1]}/_pas", then start a new shell.
_pas() {
  local -a commands subs
  if (( CURRENT == 2 )); then
    commands=(${top.join(' ')})
    _describe 'command' commands
    return
  fi
  case $words[2] in
${groupCases.join('\n')}
${topCases.join('\n')}
  esac
}
compdef _pas pas
`;
};
