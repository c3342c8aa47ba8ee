import { describe, expect, it } from 'vitest';
import { ACME_LOGO_SVG } from '../../db/seed/acme-logo.ts';
import { NIMBUS_LOGO_SVG } from '../../db/seed/demo-neighbour.ts';
import { checkLogo, placeholderLogo } from './logo.ts';
import { svgLogoProblem } from './svg-logo.ts';

const drawing = (body: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 10 10">${body}</svg>`;

/** As Adobe Illustrator exports a logo ("SVG 1.1", styles as a style sheet). */
const ILLUSTRATOR = `<?xml version="1.0" encoding="utf-8"?>
<!-- Generator: Adobe Illustrator 27.0.0, SVG Export Plug-In . SVG Version: 6.00 Build 0)  -->
<svg version="1.1" id="Layer_1" xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" x="0px" y="0px"
\t viewBox="0 0 200 60" style="enable-background:new 0 0 200 60;" xml:space="preserve">
<style type="text/css">
\t.st0{fill:url(#SVGID_1_);}
\t.st1{fill:#FFFFFF;}
\t.st2{font-family:'Helvetica-Bold';}
\t.st3{font-size:24px;}
</style>
<linearGradient id="SVGID_1_" gradientUnits="userSpaceOnUse" x1="0" y1="30" x2="60" y2="30" gradientTransform="matrix(1 0 0 -1 0 60)">
\t<stop  offset="0" style="stop-color:#0F766E"/>
\t<stop  offset="1" style="stop-color:#14B8A6"/>
</linearGradient>
<circle class="st0" cx="30" cy="30" r="28"/>
<path class="st1" d="M20,30l7,7l14-14"/>
<text transform="matrix(1 0 0 1 70 38)" class="st2 st3">Globex</text>
</svg>
`;

/** As Figma exports a frame: a clip path, a mask, a radial gradient, all in defs. */
const FIGMA = `<svg width="120" height="40" viewBox="0 0 120 40" fill="none" xmlns="http://www.w3.org/2000/svg">
<g clip-path="url(#clip0_12_34)">
<mask id="mask0_12_34" style="mask-type:luminance" maskUnits="userSpaceOnUse" x="0" y="0" width="40" height="40">
<rect width="40" height="40" rx="8" fill="white"/>
</mask>
<g mask="url(#mask0_12_34)">
<rect width="40" height="40" fill="url(#paint0_radial_12_34)"/>
</g>
<path fill-rule="evenodd" clip-rule="evenodd" d="M52 12H60V28H52V12Z" fill="#111827"/>
</g>
<defs>
<radialGradient id="paint0_radial_12_34" cx="0" cy="0" r="1" gradientUnits="userSpaceOnUse" gradientTransform="translate(20 20) rotate(90) scale(20)">
<stop stop-color="#F59E0B"/>
<stop offset="1" stop-color="#B45309" stop-opacity="0.8"/>
</radialGradient>
<clipPath id="clip0_12_34">
<rect width="120" height="40" fill="white"/>
</clipPath>
</defs>
</svg>
`;

/** Inkscape's "plain SVG": a DOCTYPE, xlink:href between gradients, a symbol used, transforms, text. */
const INKSCAPE_PLAIN = `<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="64mm" height="16mm" viewBox="0 0 64 16" version="1.1">
  <title>Initech</title>
  <desc>The Initech wordmark</desc>
  <defs>
    <linearGradient id="base"><stop offset="0" stop-color="#1d4ed8"/><stop offset="1" stop-color="#1e3a8a"/></linearGradient>
    <linearGradient id="tilted" xlink:href="#base" x1="0" y1="0" x2="1" y2="1" spreadMethod="pad"/>
    <symbol id="dot" viewBox="0 0 2 2"><circle cx="1" cy="1" r="1"/></symbol>
  </defs>
  <g transform="translate(2 2) rotate(-8 6 6) scale(0.9)">
    <ellipse cx="6" cy="6" rx="6" ry="4" fill="url(#tilted)" stroke="#fff" stroke-width="0.5" stroke-dasharray="1 0.5"/>
    <polygon points="3,9 6,2 9,9" fill="#fbbf24" opacity="0.9"/>
    <polyline points="0,12 4,10 8,12" fill="none" stroke="#111" stroke-linecap="round" stroke-linejoin="round"/>
    <line x1="0" y1="13" x2="12" y2="13" stroke="currentColor"/>
  </g>
  <use href="#dot" x="60" y="1" width="2" height="2"/>
  <text x="16" y="11" font-family="Georgia, serif" font-size="9" letter-spacing="0.2" xml:space="preserve">Ini<tspan font-weight="bold" dx="0.5">tech</tspan></text>
</svg>
`;

describe('an SVG logo', () => {
  it.each([
    ['the demo client (seed)', ACME_LOGO_SVG],
    ["the demo's neighbour (seed)", NIMBUS_LOGO_SVG],
    ['a placeholder initial', placeholderLogo('Acme & <Co>', '#1d4ed8').data],
    ['an Illustrator export (style sheet, classes, a gradient by url(#id))', ILLUSTRATOR],
    ['a Figma export (clip path, mask, radial gradient, viewBox)', FIGMA],
    ["Inkscape's plain SVG (DOCTYPE, xlink:href, symbol and use, transforms, text)", INKSCAPE_PLAIN],
    ['a byte order mark and a prefixed root', '\uFEFF<s:svg xmlns:s="http://www.w3.org/2000/svg"><s:rect width="1" height="1"/></s:svg>'],
  ])('accepts %s', (_name, svg) => {
    expect(svgLogoProblem(svg)).toBeUndefined();
    // Stored as sent (UTF-8's decoder drops a byte order mark).
    expect(checkLogo('logo.svg', 'image/svg+xml', Buffer.from(svg))).toMatchObject({
      type: 'image/svg+xml',
      data: svg.replace(/^\uFEFF/, ''),
    });
  });

  it.each([
    // The four payloads of issue 27 §4 B.
    [
      'a javascript: link spelt with a character reference',
      drawing('<a href="&#106;avascript:alert(1)"><text>x</text></a>'),
      '<a> (links are not allowed)',
    ],
    [
      'a javascript: reference spelt with a character reference',
      drawing('<use xlink:href="&#106;avascript:alert(1)"/>'),
      'xlink:href="javascript:alert(1)" on <use> (references may only point within the image, to #id)',
    ],
    [
      'an event handler set by animation',
      drawing('<rect width="9" height="9"><set attributeName="onmouseover" to="alert(1)"/></rect>'),
      '<set> (animation is not allowed)',
    ],
    [
      'an external image',
      drawing('<image href="https://evil.example/x.png" width="9" height="9"/>'),
      '<image> (images and embedded content are not allowed',
    ],
    [
      '@import in a style sheet',
      drawing('<style>@import url(https://evil.example/x.css);</style>'),
      '@import in <style> (CSS at-rules are not allowed',
    ],
    // And their neighbours.
    ['a script', drawing('<script>alert(1)</script>'), '<script> (scripts are not allowed)'],
    ['an event attribute', drawing('<rect onclick="alert(1)"/>'), 'the attribute onclick on <rect> (event handlers are not allowed)'],
    [
      'an animation of an attribute',
      drawing('<rect><animate attributeName="fill" to="red"/></rect>'),
      '<animate> (animation is not allowed)',
    ],
    [
      'embedded HTML',
      drawing('<foreignObject><p xmlns="http://www.w3.org/1999/xhtml">x</p></foreignObject>'),
      '<foreignObject> (images and embedded content',
    ],
    [
      'an external use',
      drawing('<use href="https://evil.example/s.svg#x"/>'),
      'href="https://evil.example/s.svg#x" on <use> (references may only point',
    ],
    [
      'an external paint',
      drawing('<rect fill="url(https://evil.example/p.svg#g)"/>'),
      'url("https://evil.example/p.svg#g") in the attribute fill on <rect>',
    ],
    [
      'an external url() in a style attribute',
      drawing('<rect style="fill:red;mask:url( \'//evil.example/m.svg#m\' )"/>'),
      'url("//evil.example/m.svg#m") in the attribute style',
    ],
    ['an external url() in a style sheet', drawing('<style><![CDATA[.a{fill:url(/x.svg#g)}]]></style>'), 'url("/x.svg#g") in <style>'],
    ['image-set() in a style sheet', drawing('<style>.a{fill:image-set("x.png" 1x)}</style>'), 'image-set() in <style>'],
    ['a font loaded by @font-face', drawing('<style>@font-face{font-family:x;src:url(x.woff)}</style>'), '@font-face in <style>'],
    ['a CSS escape spelling url(', drawing('<style>.a{fill:\\75rl(x.svg#g)}</style>'), 'a CSS escape (\\) in <style>'],
    ['an element inside a style sheet', drawing('<style><g/></style>'), '<g> inside <style>'],
    ['an entity declared in the DOCTYPE', `<!DOCTYPE svg [<!ENTITY x "y">]>${drawing('<text>&x;</text>')}`, 'a DOCTYPE with declarations'],
    [
      'a style sheet processing instruction',
      `<?xml-stylesheet href="https://evil.example/x.css"?>${drawing('')}`,
      'the processing instruction <?xml-stylesheet?>',
    ],
    ['xml:base', drawing('<g xml:base="https://evil.example/"/>'), 'the attribute xml:base on <g> is not allowed'],
    [
      "an editor's own attributes",
      '<svg xmlns="http://www.w3.org/2000/svg" xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape"><g inkscape:label="x"/></svg>',
      'the attribute inkscape:label on <g>, of another namespace (http://www.inkscape.org/namespaces/inkscape), is not allowed: save the logo as plain SVG',
    ],
    [
      'an HTML element',
      drawing('<html:b xmlns:html="http://www.w3.org/1999/xhtml">x</html:b>'),
      'the element <html:b>, of another namespace',
    ],
    ['a filter', drawing('<filter id="f"><feImage href="https://evil.example/x.png"/></filter>'), '<filter> (filters are not allowed)'],
    ['an unknown element', drawing('<marker/>'), '<marker>, which is not one of the drawing elements a logo may use'],
    ['an element named like an object key', drawing('<constructor/>'), '<constructor>, which is not one of the drawing elements'],
  ])('refuses %s, naming it', (_name, svg, named) => {
    const problem = svgLogoProblem(svg);
    expect(problem).toContain(`was refused: ${named}`);
    expect(() => checkLogo('the logo', 'image/svg+xml', Buffer.from(svg))).toThrow(`the logo was refused: ${named}`);
  });

  it('refuses what is not an SVG image or not well-formed XML', () => {
    expect(svgLogoProblem('<html><svg/></html>')).toMatch(/^is not an SVG image/);
    expect(svgLogoProblem('<svg/>')).toMatch(/^is not an SVG image/);
    expect(svgLogoProblem('<svg xmlns="http://www.w3.org/2000/svg"><rect</svg>')).toMatch(/^is not well-formed XML \(1:\d+: /);
    expect(svgLogoProblem(drawing('<text>&nbsp;</text>'))).toMatch(/^is not well-formed XML \(.*undefined entity/);
    expect(svgLogoProblem('')).toMatch(/^is not well-formed XML/);
    expect(svgLogoProblem(`<?xml version="1.0" encoding="ISO-8859-1"?>${drawing('')}`)).toContain('the encoding ISO-8859-1 (only UTF-8)');
  });
});
