import { errors } from '../../http/api-error.ts';
import { svgLogoProblem } from './svg-logo.ts';
import type { LogoType } from './tables.ts';

/**
 * The one check of a client's logo (issue 20 §3): `rewards clients --logo <file>` (cli/clients/logo.ts
 * reads the file) and the console's branding PUT (bytes sent as base64) both call checkLogo, so a
 * logo refused by one is refused by the other with the same words.
 */

/** A logo is shown in a 40 px high header: anything bigger than this is a mistake. */
export const MAX_LOGO_BYTES = 256 * 1024;
const MAX_PNG_SIDE = 4096;
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** What the clients table keeps: the SVG's text, or the PNG as base64 (the column is text on both engines). */
export interface StoredLogo {
  type: LogoType;
  data: string;
  bytes: number;
}

/**
 * A logo's bytes checked as `type` says: at most 256 KB, a PNG at most 4096 px a side, an SVG
 * well-formed UTF-8 XML holding only a plain drawing (svg-logo.ts: a parser and lists of what is
 * allowed, never a pattern over the text; decision 073). The route also serves it under a
 * script-less CSP and the pages show it through <img>; this keeps it clean at the source.
 * `name` is how refusals name it (the file's path for the command, "the logo" for the console).
 * A refusal is a validation error (400 in the API, exit 2 in the command) naming what was refused.
 */
export function checkLogo(name: string, type: LogoType, bytes: Buffer): StoredLogo {
  if (bytes.length === 0 || bytes.length > MAX_LOGO_BYTES)
    throw errors.validation(`${name} is ${bytes.length} bytes; a logo must be 1 byte to ${MAX_LOGO_BYTES / 1024} KB`);
  return type === 'image/png' ? checkPng(name, bytes) : checkSvg(name, bytes);
}

function checkPng(name: string, bytes: Buffer): StoredLogo {
  // Signature, then the IHDR chunk first: length 13, type "IHDR", width and height.
  if (bytes.length < 24 || !bytes.subarray(0, 8).equals(PNG_SIGNATURE) || bytes.toString('latin1', 12, 16) !== 'IHDR') {
    throw errors.validation(`${name} is not a PNG image`);
  }
  const width = bytes.readUInt32BE(16);
  const height = bytes.readUInt32BE(20);
  if (width < 1 || height < 1 || width > MAX_PNG_SIDE || height > MAX_PNG_SIDE)
    throw errors.validation(`${name} is ${width}x${height}; at most ${MAX_PNG_SIDE} px a side`);
  return { type: 'image/png', data: bytes.toString('base64'), bytes: bytes.length };
}

function checkSvg(name: string, bytes: Buffer): StoredLogo {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw errors.validation(`${name} is not UTF-8 text`);
  }
  const problem = svgLogoProblem(text);
  if (problem) throw errors.validation(`${name} ${problem}`);
  return { type: 'image/svg+xml', data: text, bytes: bytes.length };
}

/** A client created without a logo gets its initial in its colour, so the header is never empty. */
export function placeholderLogo(name: string, brandColor: string): StoredLogo {
  const initial = [...name.trim()][0]?.toLocaleUpperCase() ?? '?';
  const escaped = initial.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
  const data = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 48 48" role="img"><rect width="48" height="48" rx="12" fill="${brandColor}"/><text x="24" y="32" text-anchor="middle" font-family="system-ui,sans-serif" font-size="24" font-weight="700" fill="#ffffff">${escaped}</text></svg>`;
  return { type: 'image/svg+xml', data, bytes: Buffer.byteLength(data) };
}
