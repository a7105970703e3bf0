/** Literal values (scopes, redirect URIs) one a line, each as code. */
export const CodeList = ({ values, className }: { values: readonly string[]; className?: string }) => (
  <ul className={className ?? 'plain-list'}>
    {values.map((value) => (
      <li key={value}>
        <code>{value}</code>
      </li>
    ))}
  </ul>
);
