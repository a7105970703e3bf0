import { execFile } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

const cli = async (...args: string[]): Promise<string> =>
  (
    await run(process.execPath, ['--conditions=source', '--import', 'tsx', 'bin/cli.ts', ...args], {
      env: { ...process.env, DATA_DIR: join(tmpdir(), 'no-runtime-here'), LOCAL_RUNTIME_REGISTRY: join(tmpdir(), 'no-registry-here') },
    })
  ).stdout;

describe('shell completion', () => {
  it('offers every admin command the usage lists, as well as the API commands', async () => {
    const usage = await cli('--help');
    const adminPart = usage.split('Commands that call the API')[0] ?? '';
    const adminCommands = new Set([...adminPart.matchAll(/^ {2}([a-z][a-z-]*) /gm)].map((match) => match[1]));
    expect(adminCommands).toContain('migrate');

    const bash = await cli('completion', 'bash');
    const topLevel = /if \[ "\$cword" -le 0 \]; then\n\s+COMPREPLY=\(\$\(compgen -W "([^"]*)"/.exec(bash)?.[1]?.split(' ') ?? [];
    for (const command of adminCommands) expect(topLevel).toContain(command);

    const zsh = await cli('completion', 'zsh');
    for (const command of adminCommands) expect(zsh).toContain(`'${command}`);
  });
});
