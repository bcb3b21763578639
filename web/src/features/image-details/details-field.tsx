import type { ReactNode } from 'react';

/** One field of the details' list: its name, and its value. */
export function Field({
  label,
  wide,
  children,
}: {
  label: string;
  wide?: boolean;
  children: ReactNode;
}) {
  return (
    <div className={`details-field${wide ? ' is-wide' : ''}`}>
      <dt className="details-label">{label}</dt>
      <dd className="details-value">{children}</dd>
    </div>
  );
}
