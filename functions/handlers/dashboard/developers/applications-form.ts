/** The redirect URIs of the form's text area: one a line, blank lines and spaces around dropped. */
export const redirectUrisOf = (text: string): string[] =>
  text
    .split(/\r?\n/)
    .map((uri) => uri.trim())
    .filter(Boolean);
