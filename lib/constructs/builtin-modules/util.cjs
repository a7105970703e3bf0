// Bundled in place of `import … from 'node:util'` (lib/constructs/function-bundle.ts, builtinsWithCostlyFacades).
module.exports = process.getBuiltinModule('node:util');
