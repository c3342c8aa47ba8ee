import { SaxesParser, type SaxesAttributeNS } from 'saxes';

/**
 * What an SVG logo may hold (issue 27 §4 B, decision 073): the file is parsed by saxes, a strict
 * XML 1.0 parser (jsdom's), and every element and attribute must be on the lists below, every
 * reference within the image. Nothing is rewritten: the first thing outside the lists refuses
 * the file, named, so the person uploading it knows what to take out. A regular expression over
 * the text cannot do this: character references (`&#106;avascript:`), namespaces and CSS all
 * hide what a browser will see; the parser decodes them as the browser does.
 */

const SVG_NS = 'http://www.w3.org/2000/svg';
const XLINK_NS = 'http://www.w3.org/1999/xlink';
const XML_NS = 'http://www.w3.org/XML/1998/namespace';
const XMLNS_NS = 'http://www.w3.org/2000/xmlns/';

/** Shapes, paths, groups, gradients, clipping and masks, text, and a style sheet (checked below). */
const ELEMENTS = new Set([
  'svg',
  'g',
  'defs',
  'symbol',
  'use',
  'title',
  'desc',
  'style',
  'path',
  'rect',
  'circle',
  'ellipse',
  'line',
  'polyline',
  'polygon',
  'text',
  'tspan',
  'linearGradient',
  'radialGradient',
  'stop',
  'clipPath',
  'mask',
]);

/** Why an element often met in the wild is refused, for the message (a Map: no inherited keys). */
const REFUSED_ELEMENTS = new Map<string, string>([
  ['script', 'scripts are not allowed'],
  ['set', 'animation is not allowed'],
  ['animate', 'animation is not allowed'],
  ['animateMotion', 'animation is not allowed'],
  ['animateTransform', 'animation is not allowed'],
  ['animateColor', 'animation is not allowed'],
  ['discard', 'animation is not allowed'],
  ['a', 'links are not allowed'],
  ['image', 'images and embedded content are not allowed; upload a PNG instead'],
  ['feImage', 'images and embedded content are not allowed; upload a PNG instead'],
  ['foreignObject', 'images and embedded content are not allowed'],
  ['iframe', 'images and embedded content are not allowed'],
  ['video', 'images and embedded content are not allowed'],
  ['audio', 'images and embedded content are not allowed'],
  ['filter', 'filters are not allowed'],
]);

/** Attributes without a namespace whose value is plain text: never CSS, never a reference. */
const TEXT_ATTRIBUTES = new Set([
  'id',
  'class',
  'lang',
  'role',
  'aria-label',
  'aria-labelledby',
  'aria-describedby',
  'aria-hidden',
  'type',
]);

/** Attributes without a namespace whose value is geometry or a CSS value: checked as CSS (no escapes, no @, url() only to #id). */
const VALUE_ATTRIBUTES = new Set([
  // the viewport
  'version',
  'baseProfile',
  'width',
  'height',
  'viewBox',
  'preserveAspectRatio',
  'x',
  'y',
  // geometry
  'd',
  'pathLength',
  'points',
  'cx',
  'cy',
  'r',
  'rx',
  'ry',
  'x1',
  'y1',
  'x2',
  'y2',
  'fx',
  'fy',
  'fr',
  'transform',
  'transform-origin',
  // gradients, clipping, masks
  'gradientUnits',
  'gradientTransform',
  'spreadMethod',
  'offset',
  'stop-color',
  'stop-opacity',
  'clipPathUnits',
  'clip-path',
  'clip-rule',
  'maskUnits',
  'maskContentUnits',
  'mask',
  'mask-type',
  // text
  'dx',
  'dy',
  'rotate',
  'textLength',
  'lengthAdjust',
  'text-anchor',
  'dominant-baseline',
  'alignment-baseline',
  'baseline-shift',
  'font-family',
  'font-size',
  'font-size-adjust',
  'font-stretch',
  'font-style',
  'font-variant',
  'font-weight',
  'letter-spacing',
  'word-spacing',
  'text-decoration',
  'writing-mode',
  'direction',
  'unicode-bidi',
  // presentation
  'fill',
  'fill-opacity',
  'fill-rule',
  'stroke',
  'stroke-width',
  'stroke-linecap',
  'stroke-linejoin',
  'stroke-miterlimit',
  'stroke-dasharray',
  'stroke-dashoffset',
  'stroke-opacity',
  'opacity',
  'color',
  'display',
  'visibility',
  'overflow',
  'vector-effect',
  'shape-rendering',
  'text-rendering',
  'color-interpolation',
  'color-rendering',
  'paint-order',
  'mix-blend-mode',
  'isolation',
  // Illustrator writes it on every root; inert in browsers.
  'enable-background',
  'style',
]);

/** CSS functions that load something other than url()'s (checked on its own): none is needed in a logo. */
const LOADING_FUNCTION = /(?:^|[^\w-])((?:-webkit-)?image-set|image|cross-fade|element|src)\(/i;
const URL_FUNCTION = /url\(\s*(['"]?)\s*([^'")\s]*)/gi;

const shown = (value: string) => JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);

/** What is wrong with CSS text (a style sheet, a style attribute, a presentation value) and why, or nothing. */
function cssProblem(css: string): { what: string; why: string } | undefined {
  // An escape can spell anything (`\75rl(`, `@\69mport`); a logo's CSS needs none.
  if (css.includes('\\')) return { what: 'a CSS escape (\\)', why: 'escapes are not allowed' };
  // @import, @font-face (src: url(…)), @namespace…: at-rules load things; a logo's CSS needs none.
  const at = /@[\w-]*/.exec(css);
  if (at) return { what: at[0], why: 'CSS at-rules are not allowed: a logo may not load anything' };
  const loading = LOADING_FUNCTION.exec(css);
  if (loading) return { what: `${loading[1]}()`, why: 'a logo may not load anything' };
  for (const match of css.matchAll(URL_FUNCTION)) {
    const target = match[2] ?? '';
    if (!target.startsWith('#')) return { what: `url(${shown(target)})`, why: 'url() may only point within the image, to #id' };
  }
  return undefined;
}

function attributeProblem(element: string, attribute: SaxesAttributeNS): string | undefined {
  const { uri, local, name, value } = attribute;
  const on = `on <${element}>`;
  // Namespace declarations only name namespaces; what uses another namespace is refused below.
  if (uri === XMLNS_NS) return undefined;
  if (uri === XML_NS) return local === 'space' || local === 'lang' ? undefined : `the attribute ${name} ${on} is not allowed`;
  if (uri === XLINK_NS && local !== 'href') return `the attribute ${name} ${on} is not allowed`;
  if (uri !== '' && uri !== XLINK_NS)
    return `the attribute ${name} ${on}, of another namespace (${uri}), is not allowed: save the logo as plain SVG`;
  if (local === 'href') {
    return value.startsWith('#') ? undefined : `${name}=${shown(value)} ${on} (references may only point within the image, to #id)`;
  }
  if (/^on/i.test(local)) return `the attribute ${name} ${on} (event handlers are not allowed)`;
  if (TEXT_ATTRIBUTES.has(local) || local.startsWith('data-')) return undefined;
  if (!VALUE_ATTRIBUTES.has(local)) return `the attribute ${name} ${on} is not allowed`;
  const css = cssProblem(value);
  return css === undefined ? undefined : `${css.what} in the attribute ${name} ${on} (${css.why})`;
}

/** A problem found while parsing: stops the parse, carries the refusal's words. */
class Refused extends Error {}

const NOT_SVG = 'is not an SVG image (it must be an <svg> element of the namespace http://www.w3.org/2000/svg)';
const PLAIN_DRAWING = 'a logo must be a plain drawing: shapes, paths, groups, gradients and text, referring only to itself';

/**
 * Why `text` is not a logo SVG, as the end of a sentence naming it ("… is not well-formed XML",
 * "… was refused: <set> (animation is not allowed); …"), or undefined when it is one. The root
 * must be an `<svg>` of the SVG namespace; a DOCTYPE may name a DTD but declare nothing (no
 * entities); processing instructions other than the XML declaration are refused.
 */
export function svgLogoProblem(text: string): string | undefined {
  const parser = new SaxesParser({ xmlns: true, position: true });
  let root = true;
  /** The text of the <style> element being read. */
  let style: string | undefined;
  const refuse = (problem: string): never => {
    throw new Refused(problem);
  };
  parser.on('xmldecl', (decl) => {
    if (decl.version !== undefined && decl.version !== '1.0') refuse(`XML version ${decl.version} (only 1.0)`);
    if (decl.encoding !== undefined && decl.encoding.toLowerCase() !== 'utf-8') refuse(`the encoding ${decl.encoding} (only UTF-8)`);
  });
  parser.on('doctype', (doctype) => {
    if (doctype.includes('[')) refuse('a DOCTYPE with declarations (entities are not allowed)');
  });
  parser.on('processinginstruction', (pi) => refuse(`the processing instruction <?${pi.target}?>`));
  parser.on('opentag', (tag) => {
    if (root && (tag.uri !== SVG_NS || tag.local !== 'svg')) throw new Refused(NOT_SVG);
    root = false;
    if (tag.uri !== SVG_NS) refuse(`the element <${tag.name}>, of another namespace (${tag.uri || 'none'}): save the logo as plain SVG`);
    const reason = REFUSED_ELEMENTS.get(tag.local);
    if (reason) refuse(`<${tag.local}> (${reason})`);
    if (!ELEMENTS.has(tag.local)) refuse(`<${tag.local}>, which is not one of the drawing elements a logo may use`);
    if (style !== undefined) refuse(`<${tag.local}> inside <style> (a style sheet is text only)`);
    for (const attribute of Object.values(tag.attributes)) {
      const problem = attributeProblem(tag.local, attribute);
      if (problem) refuse(problem);
    }
    if (tag.local === 'style') style = '';
  });
  const addText = (chunk: string) => {
    if (style !== undefined) style += chunk;
  };
  parser.on('text', addText);
  parser.on('cdata', addText);
  parser.on('closetag', (tag) => {
    if (tag.local !== 'style' || style === undefined) return;
    const problem = cssProblem(style);
    if (problem) refuse(`${problem.what} in <style> (${problem.why})`);
    style = undefined;
  });
  try {
    parser.write(text).close();
  } catch (error) {
    if (!(error instanceof Refused)) {
      // saxes' own words: "1:12: unclosed tag: svg" and the like.
      return `is not well-formed XML (${error instanceof Error ? error.message : String(error)})`;
    }
    return error.message === NOT_SVG ? NOT_SVG : `was refused: ${error.message}; ${PLAIN_DRAWING}`;
  }
  return undefined;
}
