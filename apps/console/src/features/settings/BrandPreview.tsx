import { useLayoutEffect, useRef, useState, type CSSProperties, type ReactNode } from 'react';
import { t } from '../../i18n/t.ts';
import './brand-preview.css';

export interface PreviewBranding {
  name: string;
  brandColor: string;
  /** A data: URL of the logo (what is saved, or the file just chosen). */
  logoSrc: string;
}

/** The two widths the issue asks the preview at: a phone and a desktop. */
const FRAMES = [
  { width: 375, height: 667, label: 'clientSettings.preview.phone' },
  { width: 1280, height: 720, label: 'clientSettings.preview.desktop' },
] as const;

/**
 * The portal's header and home as a participant sees them, drawn with the unsaved branding at 375
 * and 1280 px and scaled to fit (decision 065). A look-alike of apps/web's header, points, shop
 * tiles and code box: brand-preview.css takes the portal's own colour rules (global.css: the strong,
 * soft and contrast shades made from --brand), and container queries stand in for the portal's media
 * queries so each frame lays out at its own width.
 */
export function BrandPreview({ branding }: { branding: PreviewBranding }) {
  return (
    <div className="brand-preview" role="group" aria-label={t('clientSettings.preview.title')}>
      {FRAMES.map((frame) => (
        <ScaledFrame key={frame.width} width={frame.width} height={frame.height} label={t(frame.label)}>
          <PortalLookAlike branding={branding} />
        </ScaledFrame>
      ))}
    </div>
  );
}

function ScaledFrame({ width, height, label, children }: { width: number; height: number; label: string; children: ReactNode }) {
  const outer = useRef<HTMLDivElement>(null);
  const [scale, setScale] = useState(0.3);
  useLayoutEffect(() => {
    const element = outer.current;
    if (!element) return undefined;
    const measure = () => setScale(Math.min(1, element.clientWidth / width));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [width]);
  return (
    <figure className={`brand-preview__frame brand-preview__frame--${width}`}>
      <figcaption>{label}</figcaption>
      <div ref={outer} className="brand-preview__viewport" style={{ height: height * scale }}>
        <div className="brand-preview__screen" style={{ width, height, transform: `scale(${scale})` }} data-width={width}>
          {children}
        </div>
      </div>
    </figure>
  );
}

function PortalLookAlike({ branding }: { branding: PreviewBranding }) {
  return (
    // Decorative copy of the portal: hidden from the accessibility tree, the form says what changes.
    <div className="pv" style={{ '--brand': branding.brandColor } as CSSProperties} aria-hidden="true" data-testid="portal-preview">
      {/* The browser's tab: where the portal shows the program's name (its header shows the logo only). */}
      <div className="pv-tab">{branding.name}</div>
      <header className="pv-header">
        <div className="pv-header__bar">
          <img className="pv-header__logo" src={branding.logoSrc} alt="" />
          <span className="pv-header__lang">English</span>
        </div>
        <nav className="pv-userbar">
          <span>Jane Doe</span>
          <span className="pv-userbar__points">12,500 points</span>
          <span className="pv-userbar__link">Profile</span>
          <span className="pv-userbar__link">Sign out</span>
        </nav>
      </header>
      <main className="pv-home">
        <section className="pv-points">
          <p className="pv-points__label">Your balance</p>
          <p className="pv-points__value">12,500 points</p>
          <span className="pv-link">See your history</span>
        </section>
        <section className="pv-tiles">
          {['Merchandise', 'Experiences', 'Travel'].map((name) => (
            <div key={name} className="pv-tile">
              <div className="pv-tile__image" />
              <p className="pv-tile__name">{name}</p>
              <span className="pv-button">Redeem</span>
            </div>
          ))}
        </section>
        <section className="pv-ots">
          <p className="pv-ots__title">Have a code?</p>
          <div className="pv-ots__row">
            <span className="pv-input">XXXX-XXXX-XXXX</span>
            <span className="pv-button">Redeem code</span>
          </div>
        </section>
      </main>
      <footer className="pv-footer">
        <span className="pv-link">Rules</span>
        <span className="pv-link">FAQ</span>
        <span className="pv-link">Privacy</span>
      </footer>
    </div>
  );
}
