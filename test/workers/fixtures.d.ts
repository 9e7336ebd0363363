/** Vite's `?raw` imports: a file's text, for the MIME fixtures of test/fixtures/inbound/. */
declare module "*?raw" {
  const text: string;
  export default text;
}
