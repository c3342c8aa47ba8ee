// Decorative tile illustrations, drawn inline so that no image is fetched and the brand colour
// (CSS variables) paints them. Symmetric enough to need no mirroring in right-to-left.

export function MerchandiseArt() {
  return (
    <svg className="shop-art" viewBox="0 0 240 150" aria-hidden="true" focusable="false">
      <circle className="shop-art__glow" cx="120" cy="82" r="62" />
      <circle className="shop-art__dot" cx="38" cy="36" r="5" />
      <circle className="shop-art__dot" cx="206" cy="48" r="4" />
      <path className="shop-art__spark" d="M196 104l4 9 9 4-9 4-4 9-4-9-9-4 9-4z" />
      <path className="shop-art__spark" d="M44 96l3 6 6 3-6 3-3 6-3-6-6-3 6-3z" />
      {/* A shopping bag, a gift box in front of it. */}
      <path className="shop-art__bag-handle" d="M74 58c0-16 10-26 22-26s22 10 22 26" />
      <rect className="shop-art__bag" x="58" y="56" width="76" height="76" rx="8" />
      <rect className="shop-art__bag-fold" x="58" y="56" width="76" height="12" rx="6" />
      <rect className="shop-art__box" x="112" y="82" width="64" height="52" rx="6" />
      <rect className="shop-art__box-lid" x="106" y="72" width="76" height="16" rx="5" />
      <rect className="shop-art__ribbon" x="138" y="72" width="12" height="62" />
      <path className="shop-art__bow" d="M144 72c-10-14-26-12-22-2 2 5 12 4 22 2zm0 0c10-14 26-12 22-2-2 5-12 4-22 2z" />
    </svg>
  );
}

export function ExperiencesArt() {
  return (
    <svg className="shop-art" viewBox="0 0 240 150" aria-hidden="true" focusable="false">
      <circle className="shop-art__glow" cx="120" cy="82" r="62" />
      <circle className="shop-art__sun" cx="168" cy="44" r="16" />
      <circle className="shop-art__dot" cx="40" cy="40" r="5" />
      {/* Mountains at dawn and a ticket. */}
      <path className="shop-art__far" d="M40 132l42-56 24 30 22-26 48 52z" />
      <path className="shop-art__near" d="M70 132l38-42 30 42z" />
      <path className="shop-art__snow" d="M82 76l8 11-8-3-7 5z" />
      <g transform="rotate(-12 150 112)">
        <path
          className="shop-art__ticket"
          d="M116 96h70a6 6 0 0 1 6 6v6a6 6 0 0 0 0 12v6a6 6 0 0 1-6 6h-70a6 6 0 0 1-6-6v-6a6 6 0 0 0 0-12v-6a6 6 0 0 1 6-6z"
        />
        <path className="shop-art__ticket-line" d="M164 100v32" />
        <path className="shop-art__star" d="M137 106l3 6 7 1-5 5 1 7-6-3-6 3 1-7-5-5 7-1z" />
      </g>
    </svg>
  );
}

export function TravelIcon() {
  return (
    <svg className="shop-icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path d="M21 16v-2l-8-5V3.5a1.5 1.5 0 0 0-3 0V9l-8 5v2l8-2.5V19l-2 1.5V22l3.5-1 3.5 1v-1.5L13 19v-5.5z" fill="currentColor" />
    </svg>
  );
}

export function BagIcon() {
  return (
    <svg className="shop-icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path d="M7 8V7a5 5 0 0 1 10 0v1h3v13H4V8zm2 0h6V7a3 3 0 0 0-6 0z" fill="currentColor" />
    </svg>
  );
}

export function TicketIcon() {
  return (
    <svg className="shop-icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path d="M3 6h18v4a2 2 0 0 0 0 4v4H3v-4a2 2 0 0 0 0-4zm10 2v2h2V8zm0 4v2h2v-2zm0 4v2h2v-2z" fill="currentColor" />
    </svg>
  );
}

export function GiftIcon() {
  return (
    <svg className="shop-icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path
        d="M20 7h-2.2A3 3 0 0 0 12 3.8 3 3 0 0 0 6.2 7H4a1 1 0 0 0-1 1v3a1 1 0 0 0 1 1v8a1 1 0 0 0 1 1h14a1 1 0 0 0 1-1v-8a1 1 0 0 0 1-1V8a1 1 0 0 0-1-1zm-5-2a1 1 0 0 1 0 2h-2a2 2 0 0 1 2-2zM9 5a2 2 0 0 1 2 2H9a1 1 0 0 1 0-2zM5 9h6v2H5zm1 4h5v6H6zm7 6v-6h5v6zm6-8h-6V9h6z"
        fill="currentColor"
      />
    </svg>
  );
}

/** "Opens elsewhere": an arrow out of a box; it points up and toward the reading direction. */
export function ExternalIcon() {
  return (
    <svg className="shop-external" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path
        d="M14 4h6v6M20 4l-9 9M18 14v5a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1V7a1 1 0 0 1 1-1h5"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}
