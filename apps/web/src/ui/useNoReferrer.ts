import { useEffect } from 'react';

/**
 * While the page is open, the document asks for no Referer on anything it loads or links to:
 * the secret of a reset link (issue 7) or a launch-as link (issue 9) must not travel in a Referer header.
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
