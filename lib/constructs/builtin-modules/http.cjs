// Bundled in place of `import … from 'node:http'` (lib/constructs/function-bundle.ts, builtinsWithCostlyFacades).
module.exports = process.getBuiltinModule('node:http');
