export interface ParsedEml {
  /** The message with LF line ends. */
  raw: string;
  /** Top-level headers, names in lower case, folded lines joined. */
  headers: Record<string, string>;
  subject: string;
  text: string;
  html: string;
}

/**
 * Just enough MIME for the messages nodemailer builds for the outbox: the top headers and the
 * decoded text/plain and text/html parts (7bit, quoted-printable or base64, UTF-8). The listing
 * reads a delivered .eml back with it (decision 042); the tests read what the SMTP sink received.
 */
export function parseEml(raw: string): ParsedEml {
  const normalized = raw.replace(/\r\n/g, '\n');
  const { headers, body } = splitHeaders(normalized);
  const parts: Record<string, string> = {};
  collectParts(headers, body, parts);
  return {
    raw: normalized,
    headers,
    subject: decodeWords(headers.subject ?? ''),
    text: parts['text/plain'] ?? '',
    html: parts['text/html'] ?? '',
  };
}

function splitHeaders(text: string): { headers: Record<string, string>; body: string } {
  const end = text.indexOf('\n\n');
  const head = end === -1 ? text : text.slice(0, end);
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\n[ \t]+/g, ' ').split('\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { headers, body: end === -1 ? '' : text.slice(end + 2) };
}

function collectParts(headers: Record<string, string>, body: string, parts: Record<string, string>): void {
  const type = headers['content-type'] ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (type.toLowerCase().startsWith('multipart/') && boundary) {
    for (const section of body.split(`--${boundary}`).slice(1)) {
      if (section.startsWith('--')) break;
      const inner = splitHeaders(section.replace(/^\n/, ''));
      collectParts(inner.headers, inner.body, parts);
    }
    return;
  }
  const mime = type.split(';')[0]?.trim().toLowerCase() ?? 'text/plain';
  parts[mime] = decodeBody(body, headers['content-transfer-encoding'] ?? '7bit');
}

function decodeBody(body: string, encoding: string): string {
  const e = encoding.toLowerCase();
  if (e === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (e === 'quoted-printable') return decodeQuotedPrintable(body.replace(/=\n/g, ''));
  return body;
}

function decodeQuotedPrintable(text: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i] ?? '';
    if (char === '=' && /^[0-9A-Fa-f]{2}$/.test(text.slice(i + 1, i + 3))) {
      bytes.push(parseInt(text.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(char, 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/** RFC 2047 encoded words (=?UTF-8?B?…?= and =?UTF-8?Q?…?=), as nodemailer writes non-ASCII subjects. */
function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g, (_m, _charset: string, kind: string, data: string) =>
      kind.toUpperCase() === 'B' ? Buffer.from(data, 'base64').toString('utf8') : decodeQuotedPrintable(data.replace(/_/g, ' ')),
    );
}
