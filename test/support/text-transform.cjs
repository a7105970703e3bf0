// Jest transform: a stylesheet imported from TypeScript is its text, as esbuild's `text` loader
// makes it in the Lambda bundles and lib/local/text-loader.mjs makes it in the local runtime.
module.exports = {
  process(sourceText) {
    return { code: `module.exports = ${JSON.stringify(sourceText)};` };
  },
};
