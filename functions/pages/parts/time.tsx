/** An instant, readable, with the exact value for machines and tooltips. */
export const Time = ({ iso, empty = '—' }: { iso: string | null | undefined; empty?: string }) =>
  iso ? (
    <time dateTime={iso} title={iso}>
      {iso.replace('T', ' ').replace(/\.\d{3}Z$/, ' UTC')}
    </time>
  ) : (
    <span className="muted">{empty}</span>
  );

/** How long something took, in ms, s or min; a dash when it has not finished. */
export const Duration = ({ ms }: { ms: number | null | undefined }) =>
  ms === null || ms === undefined ? (
    <span className="muted">—</span>
  ) : (
    <span>{ms < 1000 ? `${ms} ms` : ms < 60_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 60_000)} min`}</span>
  );
