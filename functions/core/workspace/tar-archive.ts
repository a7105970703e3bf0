import tar from 'tar-stream';

export interface TarEntry {
  name: string;
  body: Buffer;
}

/** A POSIX ustar archive (pax headers for long names) of regular files, by `tar-stream`: mode 0644, owner 0, mtime 0. */
export const writeTar = (entries: readonly TarEntry[]): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const pack = tar.pack();
    const chunks: Buffer[] = [];
    pack.on('data', (chunk: unknown) => {
      chunks.push(chunk as Buffer);
    });
    pack.on('end', () => resolve(Buffer.concat(chunks)));
    pack.on('error', reject);
    for (const { name, body } of entries) {
      pack.entry({ name, size: body.length, mode: 0o644, mtime: new Date(0), uid: 0, gid: 0, uname: '', gname: '', type: 'file' }, body);
    }
    pack.finalize();
  });

/** The regular files of an uncompressed tar, by name. */
export const readTar = async (archive: Buffer): Promise<Map<string, Buffer>> => {
  const files = new Map<string, Buffer>();
  const extract = tar.extract();
  const done = new Promise<void>((resolve, reject) => {
    extract.on('entry', (header, stream, next) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: unknown) => {
        chunks.push(chunk as Buffer);
      });
      stream.on('end', () => {
        if (header.type === 'file') files.set(header.name, Buffer.concat(chunks));
        next();
      });
      stream.on('error', reject);
    });
    extract.on('finish', resolve);
    extract.on('error', reject);
  });
  extract.end(archive);
  await done;
  return files;
};
