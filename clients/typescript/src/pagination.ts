/** The `next` target of an RFC 8288 `Link` header, or undefined on the last page. */
export const nextLink = (header: string | null): string | undefined => {
  if (!header) return undefined;
  for (const part of header.split(/,(?=\s*<)/)) {
    const match = /^\s*<([^>]*)>(.*)$/.exec(part);
    if (match && /;\s*rel="?([^";]*\s)?next(\s[^";]*)?"?\s*(;|$)/i.test(match[2] as string)) return match[1];
  }
  return undefined;
};

/** The query parameters of a link, as the object openapi-fetch sends. */
export const queryOf = (link: string): Record<string, string> => Object.fromEntries(new URL(link).searchParams);
