/** The demo client's logo: an emblem and the wordmark, brand blue on transparent. */
export const ACME_LOGO_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 220 48" role="img" aria-label="Acme Rewards">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#2563eb"/><stop offset="1" stop-color="#1e3a8a"/></linearGradient></defs>
<rect x="2" y="4" width="40" height="40" rx="11" fill="url(#g)"/>
<path d="M22 11l3.4 7.1 7.8 1.1-5.6 5.5 1.3 7.8L22 28.8l-6.9 3.7 1.3-7.8-5.6-5.5 7.8-1.1z" fill="#fbbf24"/>
<text x="52" y="31" font-family="system-ui,-apple-system,Segoe UI,Roboto,sans-serif" font-size="22" font-weight="700" fill="#1e3a8a">Acme<tspan font-weight="400" fill="#2563eb"> Rewards</tspan></text>
</svg>`;
