/**
 * `node --import <this file>` installs the network fence (network-fence.ts) before the program's
 * first line: the integration tier puts it in NODE_OPTIONS for the local runtime and every node
 * process its tests start, and `npm test` gives it to jest. tsx compiles the fence for this one
 * import (a namespaced ES module loader, removed once it is done), whatever the process's own
 * loaders and working directory.
 */
import { register } from 'tsx/esm/api';

const tsx = register({ namespace: 'network-fence' });
const { installNetworkFence } = await tsx.import('./network-fence.ts', import.meta.url);
await tsx.unregister();
installNetworkFence();
