// Bundled in place of `import … from 'node:fs'` (lib/constructs/function-bundle.ts, builtinsWithCostlyFacades).
module.exports = process.getBuiltinModule('node:fs');
