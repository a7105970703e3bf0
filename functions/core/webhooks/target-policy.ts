/**
 * Which webhook targets may be called (DESIGN.md, "Events and webhooks" and "Local runtime").
 *
 * - `requireHttps`: live mode; only `https:` URLs.
 * - `allowPrivate`: only for test-mode webhooks in the local runtime, never in AWS. Loopback and
 *   private ranges (RFC 1918, CGNAT, ULA) become reachable; link-local, cloud metadata and
 *   reserved addresses stay refused everywhere.
 *
 * The checks are in `functions/adapters/http/target-address.ts` (the URL and literal IP
 * addresses) and `webhook-http-client.ts` (every address a host name resolves to, the connection
 * pinned to a checked one).
 */
export type TargetPolicy = { requireHttps: boolean; allowPrivate: boolean };
