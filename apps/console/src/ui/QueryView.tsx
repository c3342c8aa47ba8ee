import type { ReactNode } from 'react';
import { t } from '../i18n/t.ts';
import { ErrorMessage } from './Form.tsx';

/**
 * What a query has: "Loading…" while it has nothing yet, the server's refusal in words if it
 * failed, else the content made from its data. One shape for every read of the console.
 */
export function QueryView<T>({
  query,
  children,
  failed = (error) => <ErrorMessage error={error} />,
}: {
  query: { isPending: boolean; isError: boolean; error: unknown; data: T | undefined };
  children: (data: T) => ReactNode;
  /** Where the refusal comes with more than its words (enrolment's way back to sign-in). */
  failed?: (error: unknown) => ReactNode;
}) {
  if (query.isPending) return <p className="loading">{t('common.loading')}</p>;
  if (query.isError || query.data === undefined) return <>{failed(query.error)}</>;
  return <>{children(query.data)}</>;
}
