/** The hidden field of an edit form that carries the values it was filled from (`edit-conflict.ts`). */
export const originalFieldName = 'original';

/**
 * What the form showed before anyone typed, sent back with it: when someone else saved first, the
 * fields this person changed are told apart from the ones they left, which take the other's change.
 */
export const OriginalValues = ({ values }: { values: object }) => (
  <input type="hidden" name={originalFieldName} value={JSON.stringify(values)} />
);
