import type { ReactNode } from 'react';

/** One labelled value of a `<dl>` (a participant's facts, a client's settings). */
export function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}
