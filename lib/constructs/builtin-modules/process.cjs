// Bundled in place of `import … from 'node:process'` (lib/constructs/function-bundle.ts, builtinsWithCostlyFacades).
module.exports = process.getBuiltinModule('node:process');
