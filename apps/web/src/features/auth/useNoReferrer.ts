import { useEffect } from 'react';

/**
 * While the page is open, the document asks for no Referer on anything it loads or links to:
 * the reset link's secret must not travel in a Referer header (issue 7, section 3).
 */
export function useNoReferrer(): void {
  useEffect(() => {
    const meta = document.createElement('meta');
    meta.name = 'referrer';
    meta.content = 'no-referrer';
    document.head.append(meta);
    return () => meta.remove();
  }, []);
}
