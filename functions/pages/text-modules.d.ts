/** A stylesheet imported from TypeScript is its text (esbuild's `text` loader; see ServiceFunction). */
declare module '*.css' {
  const text: string;
  export default text;
}
