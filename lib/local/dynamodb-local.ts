import { execFile, spawn } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';

export interface DynamoDbLocalOptions {
  /** Directory for the database files; ignored when inMemory is true. Created if missing. */
  dataDir?: string;
  inMemory: boolean;
  /** 0 or undefined = pick a free port on 127.0.0.1 */
  port?: number;
}

export interface DynamoDbLocal {
  endpoint: string;
  port: number;
  /** Kills the java process and waits for it to exit. Safe to call more than once. */
  stop(): Promise<void>;
}

const MIN_JAVA_VERSION = 17;
// It answers as soon as it is up (polled); the deadline only ends a hopeless start. A JVM on a loaded
// 2-core machine has taken more than 30 s to start.
const STARTUP_TIMEOUT_MS = 120_000;
const POLL_INTERVAL_MS = 100;
const STOP_GRACE_MS = 5_000;
const OUTPUT_BUFFER_BYTES = 8 * 1024;
const OUTPUT_TAIL_BYTES = 2 * 1024;
/**
 * The JIT's first tier only. With both tiers the optimising compiler kept compiling DynamoDB Local's
 * paths through a whole minute of webhook deliveries on a busy 2-core machine: 27 of the JVM's
 * 48 CPU seconds, more than its database and HTTP threads together. The first tier compiles in about
 * a second and its code is at most about 1.4× slower per call (docs/performance.md, webhook pipeline).
 */
const JVM_OPTIONS = ['-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC'];

export class JavaMissingError extends Error {
  constructor(detail: string) {
    super(
      `${detail}. DynamoDB Local needs Java ${MIN_JAVA_VERSION}+ on the PATH: install it with ` +
        '`apt-get install openjdk-17-jre-headless` (Debian/Ubuntu) or an Adoptium/Amazon Corretto JDK.',
    );
    this.name = 'JavaMissingError';
  }
}

/** Parses the major version from `java -version` output ("17.0.15", "1.8.0_392", "21"). */
function parseJavaMajor(output: string): number | undefined {
  const raw = /version "([^"]+)"/.exec(output)?.[1];
  if (raw === undefined) return undefined;
  const [first, second] = raw.split(/[._+-]/).map(Number);
  // Java 8 and older report themselves as "1.x".
  const major = first === 1 ? second : first;
  return major !== undefined && Number.isInteger(major) ? major : undefined;
}

export async function checkJava(): Promise<{ version: number }> {
  let output: string;
  try {
    const { stdout, stderr } = await promisify(execFile)('java', ['-version']);
    output = stderr + stdout; // `java -version` writes to stderr
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new JavaMissingError(code === 'ENOENT' ? 'Java was not found' : `Running \`java -version\` failed (${String(err)})`);
  }
  const version = parseJavaMajor(output);
  if (version === undefined) {
    throw new JavaMissingError(`Could not read the Java version from: ${output.trim()}`);
  }
  if (version < MIN_JAVA_VERSION) {
    throw new JavaMissingError(`Java ${version} is too old`);
  }
  return { version };
}

function emulatorDir(): string {
  const pkg = createRequire(import.meta.url).resolve('amplify-dynamodb-simulator/package.json');
  return join(dirname(pkg), 'emulator');
}

/** Binds and releases `port` (0 = any), returning the port the OS granted. */
function probePort(port: number, host?: string): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(port, host, () => {
      const address = server.address();
      const granted = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => (granted ? resolvePort(granted) : reject(new Error('Could not pick a free port'))));
    });
  });
}

/** Keeps only the most recent output of the child, so a chatty process cannot grow memory. */
class OutputTail {
  private chunks: Buffer[] = [];
  private size = 0;

  push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.size += chunk.length;
    while (this.size > OUTPUT_BUFFER_BYTES && this.chunks.length > 1) {
      this.size -= this.chunks.shift()?.length ?? 0;
    }
  }

  tail(bytes = OUTPUT_BUFFER_BYTES): string {
    const all = Buffer.concat(this.chunks);
    return all.subarray(Math.max(0, all.length - bytes)).toString('utf8');
  }
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export async function startDynamoDbLocal(options: DynamoDbLocalOptions): Promise<DynamoDbLocal> {
  await checkJava();

  const storageArgs: string[] = [];
  if (options.inMemory) {
    storageArgs.push('-inMemory');
  } else {
    if (!options.dataDir) throw new Error('startDynamoDbLocal: dataDir is required unless inMemory is true');
    const dataDir = resolve(options.dataDir);
    await mkdir(dataDir, { recursive: true });
    storageArgs.push('-dbPath', dataDir);
  }

  let port: number;
  if (options.port) {
    port = options.port;
    // A busy port must be caught here: the ready check would otherwise talk to whoever holds it, and
    // DynamoDB Local does not exit when its bind fails. No host = same wildcard bind as DynamoDB Local.
    await probePort(port).catch((err: unknown) => {
      throw new Error(`DynamoDB Local cannot use port ${port}: ${String(err)}`);
    });
  } else {
    port = await probePort(0, '127.0.0.1');
  }
  const endpoint = `http://127.0.0.1:${port}`;
  const emulator = emulatorDir();

  // DynamoDB Local has no flag to choose the bind address, so it listens on all interfaces.
  const child = spawn(
    'java',
    [
      ...JVM_OPTIONS,
      `-Djava.library.path=${join(emulator, 'DynamoDBLocal_lib')}`,
      '-jar',
      join(emulator, 'DynamoDBLocal.jar'),
      '-port',
      String(port),
      '-sharedDb',
      '-disableTelemetry',
      ...storageArgs,
    ],
    { cwd: emulator, stdio: ['ignore', 'pipe', 'pipe'] },
  );

  const output = new OutputTail();
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk));
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk));

  const killOnExit = () => child.kill('SIGKILL');
  process.on('exit', killOnExit);

  const exited = new Promise<string>((resolveExit) => {
    child.once('error', (err) => resolveExit(`failed to start: ${err.message}`));
    child.once('exit', (code, signal) => resolveExit(`exited with ${signal ?? `code ${String(code)}`}`));
  });
  let hasExited = false;
  void exited.then(() => {
    hasExited = true;
    process.removeListener('exit', killOnExit);
  });

  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      if (hasExited) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
      await exited;
      clearTimeout(timer);
    })();
    return stopping;
  };

  const failure = await waitUntilReady(endpoint, exited, output);
  if (failure !== undefined) {
    await stop();
    throw new Error(`DynamoDB Local on port ${port} ${failure}.\n--- last output ---\n${output.tail(OUTPUT_TAIL_BYTES)}`);
  }

  return { endpoint, port, stop };
}

/** Resolves to undefined once ListTables succeeds, or to a reason when the process dies or times out. */
async function waitUntilReady(endpoint: string, exited: Promise<string>, output: OutputTail): Promise<string | undefined> {
  const client = new DynamoDBClient({
    endpoint,
    region: 'local',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
    requestHandler: { connectionTimeout: 1_000 },
  });
  let exitReason: string | undefined;
  void exited.then((reason) => (exitReason = reason));

  try {
    const deadline = Date.now() + STARTUP_TIMEOUT_MS;
    while (Date.now() < deadline) {
      // The first request can be slow while the JVM warms up, so only the overall deadline bounds it.
      const abortSignal = AbortSignal.timeout(Math.max(1, deadline - Date.now()));
      const answered = await client.send(new ListTablesCommand({ Limit: 1 }), { abortSignal }).then(
        () => true,
        () => false, // not listening yet; retry until the deadline
      );
      if (exitReason !== undefined) return exitReason;
      // Startup exceptions (e.g. a failed bind) leave the JVM running, so they have to be spotted in its output.
      if (output.tail().includes('Exception in thread "main"')) return 'failed during startup';
      if (answered) return undefined;
      await Promise.race([sleep(POLL_INTERVAL_MS), exited]);
    }
    return `did not accept requests within ${STARTUP_TIMEOUT_MS / 1000} s`;
  } finally {
    client.destroy();
  }
}
