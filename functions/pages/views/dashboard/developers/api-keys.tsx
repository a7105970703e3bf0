import type { CredentialView } from '../../../../core/credentials/credential';
import { isDueForRotation, keyRotationDays, mayManageKey, rollOverlaps } from '../../../../core/credentials/dashboard-keys';
import { allScopes, isReadScope, scopeDescriptions } from '../../../../core/credentials/scopes';
import type { Shell } from '../../../dashboard-shell';
import { Layout } from '../../../layout';
import { Alert } from '../../../parts/alert';
import { Button } from '../../../parts/button';
import { Card } from '../../../parts/card';
import { CheckboxGroup, SelectField } from '../../../parts/choice-fields';
import { CodeList } from '../../../parts/code-list';
import { ConfirmForm } from '../../../parts/confirm-form';
import { Empty } from '../../../parts/empty';
import { FormCard } from '../../../parts/form-card';
import { OneTimeSecret } from '../../../parts/one-time-secret';
import { RecordTable } from '../../../parts/record-table';
import { StatusBadge } from '../../../parts/status-badge';
import { TextField } from '../../../parts/text-field';
import { Time } from '../../../parts/time';

export const keyTypeLabels: Record<string, string> = {
  live: 'Live key',
  test: 'Test key',
  ro: 'Read-only key',
  pat: 'Personal access token',
};

const expiryOptions = [
  { value: '', label: 'Never' },
  { value: '30', label: 'In 30 days' },
  { value: '60', label: 'In 60 days' },
  { value: '90', label: 'In 90 days' },
  { value: '180', label: 'In 180 days' },
  { value: '366', label: 'In a year' },
];

const standing = (key: CredentialView, nowMs: number): 'revoked' | 'expired' | 'active' =>
  key.revoked_at ? 'revoked' : key.expires_at && Date.parse(key.expires_at) <= nowMs ? 'expired' : 'active';

export interface NewKeyForm {
  name: string;
  type: string;
  scopes: string[];
  expires_in_days: string;
}

export interface ApiKeysPageProps {
  shell: Shell;
  /** The person looking: what they may do to each key depends on whether they made it. */
  userId: string;
  keys: CredentialView[];
  /** E-mails of the people who made keys, by user id; a key without one shows "—". */
  creators?: ReadonlyMap<string, string>;
  nowMs: number;
  /** The value of a key just created or rolled: shown this once. */
  created?: { key: string; view: CredentialView; rolledFrom?: CredentialView };
  notice?: string;
  errors?: string[];
  fieldErrors?: Record<string, string>;
  form?: NewKeyForm;
}

const KeyRow = ({
  shell,
  userId,
  item,
  nowMs,
  creator,
}: {
  shell: Shell;
  userId: string;
  item: CredentialView;
  nowMs: number;
  creator?: string;
}) => {
  const state = standing(item, nowMs);
  const actor = { userId, role: shell.role };
  const base = `/dashboard/developers/api-keys/${encodeURIComponent(item.id)}`;
  return (
    <tr>
      <th scope="row">
        {item.name}
        <div className="muted small">
          <code>{item.id}</code>
        </div>
      </th>
      <td>{keyTypeLabels[item.type] ?? item.type}</td>
      <td>{item.scopes.length === allScopes.length ? 'Every scope' : <CodeList values={item.scopes} className="plain-list scopes" />}</td>
      <td>
        <code>{item.hint}</code>
      </td>
      <td>
        <Time iso={item.created_at} />
        {state === 'active' && isDueForRotation(item, nowMs) && (
          <div>
            <span className="badge badge--warn">Older than {keyRotationDays} days: roll it</span>
          </div>
        )}
      </td>
      <td className="break">{creator ?? '—'}</td>
      <td>
        <Time iso={item.last_used_at} empty="Never" />
      </td>
      <td>
        <Time iso={item.expires_at} empty="Never" />
      </td>
      <td>
        {/* Whoever may roll a key may revoke it. */}
        {state === 'active' && mayManageKey(actor, item, 'revoke') && (
          <div className="row-actions">
            {mayManageKey(actor, item, 'roll') && (
              <ConfirmForm
                action={`${base}/roll`}
                csrfToken={shell.viewer.csrfToken}
                confirm={`Roll the key "${item.name}"? A new value replaces it; the old one stops working at the time you chose.`}
                label={`Roll ${item.name}`}
                className="roll-form"
                once
              >
                <label for={`overlap-${item.id}`}>Old value stops working</label>
                <select id={`overlap-${item.id}`} name="overlap_hours">
                  {rollOverlaps.map((o) => (
                    <option key={o.hours} value={String(o.hours)} selected={o.hours === 24}>
                      {o.label}
                    </option>
                  ))}
                </select>
                <Button variant="secondary">Roll key</Button>
              </ConfirmForm>
            )}
            {mayManageKey(actor, item, 'revoke') && (
              <ConfirmForm
                action={`${base}/revoke`}
                csrfToken={shell.viewer.csrfToken}
                confirm={`Revoke the key "${item.name}"? Every request with it is refused from now on.`}
                label={`Revoke ${item.name}`}
              >
                <Button variant="danger">Revoke</Button>
              </ConfirmForm>
            )}
          </div>
        )}
      </td>
    </tr>
  );
};

export const ApiKeysPage = (props: ApiKeysPageProps) => {
  const { shell } = props;
  const viewer = shell.role !== 'admin';
  const scopeOptions = allScopes
    .filter((s) => !viewer || isReadScope(s))
    .map((s) => ({ value: s, label: s, description: scopeDescriptions[s] }));
  const active = props.keys.filter((k) => standing(k, props.nowMs) === 'active');
  const inactive = props.keys.filter((k) => standing(k, props.nowMs) !== 'active');
  const form = props.form ?? { name: '', type: shell.mode === 'test' ? 'test' : 'live', scopes: [], expires_in_days: '' };
  return (
    <Layout title="API keys" shell={shell}>
      <h1>API keys</h1>
      <p className="muted">
        Keys and personal access tokens call the API at <code>/v1</code>. Test keys see test data; every other key sees live data. Roll keys
        about every {keyRotationDays} days. A personal access token is its creator’s and stops working when they leave the account; the
        other keys stay the account’s.
      </p>
      {props.notice && <Alert kind="success">{props.notice}</Alert>}
      {props.created && (
        <Card>
          <OneTimeSecret
            id="new-key-value"
            label={props.created.rolledFrom ? `New value of "${props.created.view.name}"` : `Your new key "${props.created.view.name}"`}
            value={props.created.key}
          >
            {props.created.rolledFrom && (
              <p>
                The old value (<code>{props.created.rolledFrom.hint}</code>) stops working{' '}
                <Time iso={props.created.rolledFrom.expires_at} />.
              </p>
            )}
          </OneTimeSecret>
        </Card>
      )}
      <Card>
        <h2>Active keys</h2>
        {active.length === 0 ? (
          <Empty>No active keys. Create one below.</Empty>
        ) : (
          <RecordTable
            className="table keys-table"
            caption="Active keys, newest first"
            // Every key here is active: no status column, so that the actions fit beside the rest.
            headings={['Name', 'Type', 'Scopes', 'Key', 'Created', 'Created by', 'Last used', 'Expires', 'Actions']}
            records={active}
            row={(item) => (
              <KeyRow
                key={item.id}
                shell={shell}
                userId={props.userId}
                item={item}
                nowMs={props.nowMs}
                creator={item.created_by_user_id ? props.creators?.get(item.created_by_user_id) : undefined}
              />
            )}
          />
        )}
      </Card>
      <FormCard
        once
        title="Create a key"
        headingId="create-key"
        intro={viewer && <Alert kind="info">As a viewer you can create keys that only read (read:* scopes).</Alert>}
        action="/dashboard/developers/api-keys"
        csrfToken={shell.viewer.csrfToken}
        errors={props.errors}
        submit="Create"
      >
        <TextField
          label="Name"
          name="name"
          value={form.name}
          required
          maxLength={100}
          hint="What uses it, e.g. “CI deploys”."
          error={props.fieldErrors?.name}
        />
        <SelectField
          label="Type"
          name="type"
          value={form.type}
          options={Object.entries(keyTypeLabels).map(([value, label]) => ({ value, label }))}
          hint="A read-only key can never write, whatever its scopes."
        />
        <CheckboxGroup legend="Scopes" name="scopes" options={scopeOptions} checked={form.scopes} error={props.fieldErrors?.scopes} />
        <SelectField label="Expires" name="expires_in_days" value={form.expires_in_days} options={expiryOptions} />
      </FormCard>
      {inactive.length > 0 && (
        <Card>
          <h2>Revoked and expired keys</h2>
          <ul className="plain-list">
            {inactive.map((item) => (
              <li key={item.id}>
                {item.name} <code>{item.hint}</code> <StatusBadge status={standing(item, props.nowMs)} />{' '}
                <Time iso={item.revoked_at ?? item.expires_at} />
              </li>
            ))}
          </ul>
        </Card>
      )}
    </Layout>
  );
};
