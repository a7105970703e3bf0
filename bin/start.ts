import { parseArgs } from 'node:util';
import { JavaMissingError } from '../lib/local/dynamodb-local';
import { dataDirFromEnvironment } from '../lib/local/runtime-file';
import { startLocalRuntime } from '../lib/local/runtime';

// The AWS SDK warns that it will need Node 22 from 2027; the local tools support Node 20.19+.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const { values } = parseArgs({
  options: {
    port: { type: 'string' },
    'in-memory': { type: 'boolean', default: process.env.IN_MEMORY === '1' || process.env.IN_MEMORY === 'true' },
    help: { type: 'boolean', default: false },
  },
});

if (values.help) {
  console.log(`npm start [-- --port N] [-- --in-memory]

Runs the whole service locally on DynamoDB Local.
  --port N       port of the API (default: $PORT or 3000; 0 picks a free one)
  --in-memory    keep nothing: DynamoDB Local runs in memory
Environment: PORT, DATA_DIR (default .local-data/), IN_MEMORY, LOG_LEVEL (default WARN),
             RATE_LIMIT_PER_SECOND (50), RATE_LIMIT_BURST (100),
             LOCAL_TIME_SCALE (1: multiplies webhook retry delays only),
             LOCAL_VISIBILITY_TIMEOUT (30: seconds a delivery message the dispatcher failed on stays hidden),
             LOCAL_WAIT_SCALE (1: multiplies deployment health deadlines and Step Functions waits)`);
  process.exit(0);
}

const port = Number(values.port ?? process.env.PORT ?? 3000);
const dataDir = dataDirFromEnvironment();
const inMemory = values['in-memory'] ?? false;

try {
  const runtime = await startLocalRuntime({ port, dataDir, inMemory });
  console.log(`Project Automation Service, local runtime`);
  console.log(
    inMemory ? 'Data: in memory (nothing is kept)' : `Data: ${dataDir} (kept across restarts; delete the folder to start afresh)`,
  );
  if (runtime.bootstrap) {
    const { account, liveKey, testKey, admin } = runtime.bootstrap;
    console.log(`\nCreated the default account ${account.id} (${account.email}) with two keys holding every scope.`);
    console.log('They are shown this once; store them now (more with `npm run cli -- keys create`):');
    console.log(`  live key: ${liveKey.key}`);
    console.log(`  test key: ${testKey.key}`);
    console.log(`and its admin user ${admin.email}: set a password and sign in at this one-time link (24 h):`);
    console.log(`  sign-in link: ${admin.signInLink}\n`);
  }
  console.log(`Dashboard at ${runtime.origin}/dashboard; OAuth authorization server (issuer) ${runtime.origin}`);
  console.log(`API ready at ${runtime.apiUrl}`);

  const shutdown = (): void => {
    void runtime.stop().then(() => process.exit(0));
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
} catch (error) {
  if (error instanceof JavaMissingError) {
    console.error(error.message);
    process.exit(1);
  }
  if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
    console.error(`Port ${port} is in use: set PORT to another port (or stop what uses it).`);
    process.exit(1);
  }
  throw error;
}
