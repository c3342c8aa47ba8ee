import { useEffect, useLayoutEffect, useRef, useState, useSyncExternalStore } from 'react';

const QUERY = '(prefers-reduced-motion: reduce)';

function subscribe(callback: () => void): () => void {
  if (typeof window.matchMedia !== 'function') return () => {};
  const media = window.matchMedia(QUERY);
  media.addEventListener('change', callback);
  return () => media.removeEventListener('change', callback);
}

/** No matchMedia (jsdom) counts as reduced motion: nothing waits on an animation there. */
const reduced = () => typeof window.matchMedia !== 'function' || window.matchMedia(QUERY).matches;

const useReducedMotion = () => useSyncExternalStore(subscribe, reduced, () => true);

/**
 * Keeps showing the previous value for `exitMs` with leaving = true, so that it can animate
 * out before the next one animates in. From nothing (no modal) the swap is immediate, and so
 * is every swap under prefers-reduced-motion.
 */
export function useExitTransition<T>(current: T, keyOf: (value: T) => string, exitMs: number): { shown: T; leaving: boolean } {
  const reduce = useReducedMotion();
  const [shown, setShown] = useState(current);
  const currentRef = useRef(current);
  // Layout effects run before the swap effect below, so it always swaps in the latest value.
  useLayoutEffect(() => {
    currentRef.current = current;
  });
  const shownKey = keyOf(shown);
  const currentKey = keyOf(current);
  const immediate = reduce || exitMs <= 0 || shownKey === '';
  const changed = shownKey !== currentKey;

  useEffect(() => {
    if (!changed) return;
    if (immediate) {
      setShown(currentRef.current);
      return;
    }
    const timer = setTimeout(() => setShown(currentRef.current), exitMs);
    return () => clearTimeout(timer);
  }, [changed, immediate, currentKey, exitMs]);

  if (!changed || immediate) return { shown: current, leaving: false };
  return { shown, leaving: true };
}
