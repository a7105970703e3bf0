/** A stylesheet imported from TypeScript is its text (esbuild's `text` loader; see ServiceFunction). */
declare module '*.css' {
  const text: string;
  export default text;
}

/** The dashboard's browser script imported from TypeScript is its text, like a stylesheet. */
declare module '*.client.js' {
  const text: string;
  export default text;
}
