import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { CheckoutRequest, RepositoryAccess } from '../../../functions/core/workflows/stages/stage-deps';
import type { Scratch } from '../../../functions/core/workspace/working-tree';
import { workingTreeAt } from '../../../functions/adapters/workspace/working-tree';

export const checkedOutCommit = 'c0ffee0000000000000000000000000000000001';

/**
 * A RepositoryAccess whose checkout writes `files` into the requested folder and answers
 * `{ commit, branch }` (the requested branch, else `defaultBranch`); `failWith` makes it throw.
 */
export const fakeCheckout = (files: Record<string, string> = {}) => {
  const requests: CheckoutRequest[] = [];
  const behaviour: { files: Record<string, string>; commit: string; defaultBranch: string; failWith: Error | undefined } = {
    files,
    commit: checkedOutCommit,
    defaultBranch: 'main',
    failWith: undefined,
  };
  const access: RepositoryAccess = {
    async checkout(request) {
      requests.push({ ...request });
      if (behaviour.failWith) throw behaviour.failWith;
      for (const [path, content] of Object.entries(behaviour.files)) {
        const target = join(request.dir, ...path.split('/'));
        await mkdir(dirname(target), { recursive: true });
        await writeFile(target, content);
      }
      return { commit: request.commit ?? behaviour.commit, branch: request.branch ?? behaviour.defaultBranch };
    },
  };
  return { ...access, requests, behaviour };
};

/** Real temporary folders; records which were made and which disposed. */
export const tempScratch = () => {
  const made: string[] = [];
  const disposed: string[] = [];
  const scratch: Scratch = {
    async create() {
      const dir = await mkdtemp(join(tmpdir(), 'testing-feature-'));
      made.push(dir);
      return workingTreeAt(dir, async () => {
        disposed.push(dir);
        await rm(dir, { recursive: true, force: true });
      });
    },
  };
  return {
    ...scratch,
    made,
    disposed,
    removeAll: () => Promise.all(made.map((dir) => rm(dir, { recursive: true, force: true }))),
  };
};
