import type { FileChange } from '../../core/workflows/stage-data';
import { InvalidChangeSetError } from '../../core/workspace/validate-change-set';
import { fs, git, type GitCache } from './git-client';

type TreeEntry = Awaited<ReturnType<typeof git.readTree>>['tree'][number];

interface FolderEdits {
  files: Map<string, string | null>;
  folders: Map<string, FolderEdits>;
}

const emptyEdits = (): FolderEdits => ({ files: new Map(), folders: new Map() });

const editsOf = (changes: readonly FileChange[]): FolderEdits => {
  const root = emptyEdits();
  for (const { path, content } of changes) {
    const segments = path.split('/');
    const name = segments.pop() as string;
    let folder = root;
    for (const segment of segments) {
      let next = folder.folders.get(segment);
      if (!next) folder.folders.set(segment, (next = emptyEdits()));
      folder = next;
    }
    folder.files.set(name, content);
  }
  return root;
};

interface Repository {
  gitdir: string;
  cache: GitCache;
}

const refuse = (path: string, issue: string): never => {
  throw new InvalidChangeSetError([{ path, issue }]);
};

/** Writes the edited tree; null when it ends up empty (git has no empty folders). */
const editTree = async (repo: Repository, treeOid: string | null, edits: FolderEdits, prefix: string): Promise<string | null> => {
  const entries = new Map<string, TreeEntry>();
  if (treeOid) {
    const { tree } = await git.readTree({ fs, gitdir: repo.gitdir, oid: treeOid, cache: repo.cache });
    for (const entry of tree) entries.set(entry.path, entry);
  }
  const pathOf = (name: string) => (prefix === '' ? name : `${prefix}/${name}`);

  for (const [name, content] of edits.files) {
    const existing = entries.get(name);
    if (existing?.type === 'tree') refuse(pathOf(name), 'is a folder');
    if (existing?.mode === '120000') refuse(pathOf(name), 'is a symbolic link');
    if (existing?.type === 'commit') refuse(pathOf(name), 'is a submodule');
    if (content === null) {
      entries.delete(name);
      continue;
    }
    const oid = await git.writeBlob({ fs, gitdir: repo.gitdir, blob: Buffer.from(content, 'utf8') });
    entries.set(name, { path: name, oid, type: 'blob', mode: existing?.mode === '100755' ? '100755' : '100644' });
  }

  for (const [name, folderEdits] of edits.folders) {
    const existing = entries.get(name);
    if (existing && existing.type !== 'tree') refuse(pathOf(name), 'must be a folder, but it is a file');
    const oid = await editTree(repo, existing?.oid ?? null, folderEdits, pathOf(name));
    if (oid === null) entries.delete(name);
    else entries.set(name, { path: name, oid, type: 'tree', mode: '040000' });
  }

  if (entries.size === 0 && prefix !== '') return null;
  return git.writeTree({ fs, gitdir: repo.gitdir, tree: [...entries.values()] });
};

export interface CommitChangesRequest {
  gitdir: string;
  baseCommit: string;
  changes: readonly FileChange[];
  message: string;
  author: { name: string; email: string };
  date: Date;
  cache?: GitCache;
}

/** Writes a commit on top of `baseCommit` with the changes applied to its tree; returns its id. No ref is moved. */
export const commitChanges = async (request: CommitChangesRequest): Promise<string> => {
  const repo = { gitdir: request.gitdir, cache: request.cache ?? {} };
  const { commit: base } = await git.readCommit({ fs, gitdir: repo.gitdir, oid: request.baseCommit, cache: repo.cache });
  const tree = (await editTree(repo, base.tree, editsOf(request.changes), '')) as string;
  const signature = {
    name: request.author.name,
    email: request.author.email,
    timestamp: Math.floor(request.date.getTime() / 1000),
    timezoneOffset: 0,
  };
  return git.writeCommit({
    fs,
    gitdir: repo.gitdir,
    commit: {
      message: request.message.endsWith('\n') ? request.message : `${request.message}\n`,
      tree,
      parent: [request.baseCommit],
      author: signature,
      committer: signature,
    },
  });
};
