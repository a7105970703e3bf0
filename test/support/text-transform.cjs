// Jest transform: a stylesheet or the dashboard's browser script imported from TypeScript is its
// text, as esbuild's `text` loader makes it in the Lambda bundles and lib/local/text-loader.mjs
// makes it in the local runtime. A `.js` file is an ES module here (the package is "type":
// "module"), so it gets an ES default export; a stylesheet a CommonJS one.
const { createHash } = require('node:crypto');

const moduleOf = (sourcePath) => (sourcePath.endsWith('.js') ? 'esm' : 'cjs');

module.exports = {
  process(sourceText, sourcePath) {
    const text = JSON.stringify(sourceText);
    return { code: moduleOf(sourcePath) === 'esm' ? `export default ${text};` : `module.exports = ${text};` };
  },
  getCacheKey(sourceText, sourcePath) {
    return createHash('sha256')
      .update(`text-transform-2\0${moduleOf(sourcePath)}\0${sourceText}`)
      .digest('hex');
  },
};
