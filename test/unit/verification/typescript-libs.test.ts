import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  installedTypeScriptLibDir,
  requiredTypeScriptLibFiles,
  rootLibFile,
} from '../../../functions/engines/verification/typescript-libs';

describe('TypeScript lib files', () => {
  it('are found next to the installed typescript package', () => {
    const libDir = installedTypeScriptLibDir();

    expect(libDir).toMatch(/node_modules[/\\]typescript[/\\]lib$/);
  });

  it('are the root lib and everything it references, all present where TypeScript is installed', () => {
    const libDir = installedTypeScriptLibDir() ?? '';
    const files = requiredTypeScriptLibFiles(libDir);

    expect(files).toEqual(
      expect.arrayContaining([rootLibFile, 'lib.es5.d.ts', 'lib.dom.d.ts', 'lib.decorators.d.ts', 'lib.es2023.array.d.ts']),
    );
    expect(files).toEqual([...files].sort());
    expect(files.filter((file) => !existsSync(join(libDir, file)))).toEqual([]);
  });
});
