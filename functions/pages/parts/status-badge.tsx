const statusTone: Record<string, 'ok' | 'danger' | 'warn' | 'info' | 'neutral'> = {
  completed: 'ok',
  succeeded: 'ok',
  enabled: 'ok',
  resolved: 'ok',
  active: 'ok',
  healthy: 'ok',
  failed: 'danger',
  critical: 'danger',
  high: 'danger',
  revoked: 'danger',
  expired: 'danger',
  rolled_back: 'warn',
  cancelled: 'neutral',
  skipped: 'neutral',
  medium: 'warn',
  remediating: 'info',
  running: 'info',
  in_progress: 'info',
  pending: 'neutral',
  queued: 'neutral',
  open: 'warn',
  low: 'neutral',
  info: 'neutral',
  inactive: 'neutral',
};

/** A status in words with a colour beside it (never colour alone: the word is always there). */
export const StatusBadge = ({ status, label }: { status: string; label?: string }) => (
  <span className={`badge badge--${statusTone[status] ?? 'neutral'}`}>{label ?? status.replace(/_/g, ' ')}</span>
);
