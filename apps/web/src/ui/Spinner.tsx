import './ui.css';

/** A spinning ring; decorative, so the busy element around it must say what is happening. */
export function Spinner({ size = 'md' }: { size?: 'sm' | 'md' | 'lg' }) {
  return <span className={`ui-spinner ui-spinner--${size}`} aria-hidden="true" />;
}

/** Full-screen activity indicator shown while the app starts (spec section 2, Other screens). */
export function LoadingOverlay({ label, leaving = false }: { label?: string; leaving?: boolean }) {
  return (
    <div className={`ui-loading${leaving ? ' ui-loading--leaving' : ''}`} role="status" aria-live="polite">
      <Spinner size="lg" />
      {label ? <span className="ui-visually-hidden">{label}</span> : null}
    </div>
  );
}
