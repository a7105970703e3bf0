import type { ComponentChildren } from 'preact';
import { PostForm } from './components';

/**
 * Building blocks of the dashboard's resource pages (tables, statuses, confirmations, secrets
 * shown once). Like components.tsx: values reach the HTML through JSX only, no inline style or script.
 */

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

/** An instant, readable, with the exact value for machines and tooltips. */
export const Time = ({ iso, empty = '—' }: { iso: string | null | undefined; empty?: string }) =>
  iso ? (
    <time dateTime={iso} title={iso}>
      {iso.replace('T', ' ').replace(/\.\d{3}Z$/, ' UTC')}
    </time>
  ) : (
    <span className="muted">{empty}</span>
  );

export const Duration = ({ ms }: { ms: number | null | undefined }) =>
  ms === null || ms === undefined ? (
    <span className="muted">—</span>
  ) : (
    <span>{ms < 1000 ? `${ms} ms` : ms < 60_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 60_000)} min`}</span>
  );

/**
 * A state-changing form that is confirmed first: in a dialog by the script, else on a page of the
 * server's own (which answers any POST without `confirmed=yes` by asking).
 */
export const ConfirmForm = (props: {
  action: string;
  csrfToken: string;
  confirm: string;
  className?: string;
  label?: string;
  children: ComponentChildren;
}) => <PostForm {...props} className={props.className ?? 'inline-form'} />;

/** A value shown this once (a key, a secret) with a copy button the script reveals. */
export const OneTimeSecret = (props: { id: string; label: string; value: string; children?: ComponentChildren }) => (
  <div className="one-time-secret" role="region" aria-labelledby={`${props.id}-label`}>
    <h2 id={`${props.id}-label`}>{props.label}</h2>
    <p>
      <strong>Copy it now: it is shown this once.</strong> The service keeps only a hash of it.
    </p>
    <div className="secret-row">
      <code className="secret" id={props.id}>
        {props.value}
      </code>
      <button type="button" className="button button--secondary" data-copy={props.id} hidden>
        Copy
      </button>
    </div>
    {props.children}
  </div>
);

export interface Option {
  value: string;
  label: string;
  /** Said after the label (aria-describedby), so the label stays the value's own name. */
  description?: string;
}

export const SelectField = (props: { label: string; name: string; options: Option[]; value?: string; hint?: string }) => {
  const id = `field-${props.name}`;
  return (
    <div className="field">
      <label for={id}>{props.label}</label>
      <select id={id} name={props.name} aria-describedby={props.hint ? `${id}-hint` : undefined}>
        {props.options.map((option) => (
          <option key={option.value} value={option.value} selected={option.value === props.value}>
            {option.label}
          </option>
        ))}
      </select>
      {props.hint && (
        <div className="field__hint" id={`${id}-hint`}>
          {props.hint}
        </div>
      )}
    </div>
  );
};

/** Checkboxes under a legend; each labelled with its value (`read:projects`), as tests and screen readers find them. */
export const CheckboxGroup = (props: {
  legend: string;
  name: string;
  options: Option[];
  checked?: readonly string[];
  hint?: string;
  columns?: boolean;
}) => (
  <fieldset className={props.columns ? 'field checkbox-group checkbox-group--columns' : 'field checkbox-group'}>
    <legend>{props.legend}</legend>
    {props.hint && <div className="field__hint">{props.hint}</div>}
    <div className="checkbox-group__options">
      {props.options.map((option) => {
        const id = `field-${props.name}-${option.value.replace(/[^a-z0-9]/gi, '-')}`;
        return (
          <div className="checkbox" key={option.value}>
            <input
              type="checkbox"
              id={id}
              name={props.name}
              value={option.value}
              checked={props.checked?.includes(option.value)}
              aria-describedby={option.description ? `${id}-description` : undefined}
            />
            <label for={id}>{option.label}</label>
            {option.description && (
              <span className="checkbox__description muted" id={`${id}-description`}>
                {option.description}
              </span>
            )}
          </div>
        );
      })}
    </div>
  </fieldset>
);

/** Which page of a list is shown, of how many; what a list page's props carry for `Pagination`. */
export interface Paged {
  page: number;
  totalPages: number;
  total: number;
  /** A page's address with the current filters. */
  hrefOf(page: number): string;
}

/** Page links under a list. */
export const Pagination = (props: Paged) =>
  props.totalPages <= 1 ? (
    <p className="muted">{props.total === 1 ? '1 item' : `${props.total} items`}</p>
  ) : (
    <nav className="pagination" aria-label="Pages">
      {props.page > 1 && (
        <a href={props.hrefOf(props.page - 1)} rel="prev">
          Previous page
        </a>
      )}
      <span>
        Page {props.page} of {props.totalPages} ({props.total} items)
      </span>
      {props.page < props.totalPages && (
        <a href={props.hrefOf(props.page + 1)} rel="next">
          Next page
        </a>
      )}
    </nav>
  );

/** A list that is empty says so, and what to do. */
export const Empty = ({ children }: { children: ComponentChildren }) => <p className="empty muted">{children}</p>;
