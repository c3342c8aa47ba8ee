import { SMTPServer } from 'smtp-server';
import { freePort } from './ports.ts';

/** A message as the SMTP server received it, with the few parts the mail tests read. */
export interface ReceivedMail {
  raw: string;
  from: string;
  to: string[];
  headers: Record<string, string>;
  subject: string;
  text: string;
  html: string;
}

/**
 * A real SMTP server in the test process, on a fixed free loopback port, that can be down
 * (not listening), refuse mail with a temporary 451, or accept and keep what it receives.
 */
export interface SmtpSink {
  port: number;
  url: string;
  received: ReceivedMail[];
  /** accept: 250 and keep the mail · tempfail: 451 to MAIL FROM · permfail: 550 to RCPT TO */
  mode: 'accept' | 'tempfail' | 'permfail';
  up(): Promise<void>;
  down(): Promise<void>;
}

export async function createSmtpSink(): Promise<SmtpSink> {
  const port = await freePort();
  let server: SMTPServer | undefined;
  const sink: SmtpSink = {
    port,
    url: `smtp://127.0.0.1:${port}`,
    received: [],
    mode: 'accept',
    async up() {
      if (server) return;
      const smtp = new SMTPServer({
        authOptional: true,
        // Plain SMTP on loopback: no self-signed STARTTLS for the client to trip over.
        disabledCommands: ['STARTTLS', 'AUTH'],
        logger: false,
        onMailFrom(_address, _session, callback) {
          if (sink.mode !== 'tempfail') return callback();
          callback(Object.assign(new Error('Try again later'), { responseCode: 451 }));
        },
        onRcptTo(_address, _session, callback) {
          if (sink.mode !== 'permfail') return callback();
          callback(Object.assign(new Error('No such user here'), { responseCode: 550 }));
        },
        onData(stream, session, callback) {
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('end', () => {
            const raw = Buffer.concat(chunks).toString('utf8');
            const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
            sink.received.push({ ...parseMessage(raw), from, to: session.envelope.rcptTo.map((r) => r.address) });
            callback();
          });
        },
      });
      await new Promise<void>((resolve, reject) => {
        smtp.once('error', reject);
        smtp.listen(port, '127.0.0.1', () => resolve());
      });
      server = smtp;
    },
    async down() {
      const smtp = server;
      server = undefined;
      if (smtp) await new Promise<void>((resolve) => smtp.close(() => resolve()));
    },
  };
  return sink;
}

/** Just enough MIME for the tests: top headers, and the decoded text/plain and text/html parts. */
export function parseMessage(raw: string): Omit<ReceivedMail, 'from' | 'to'> {
  const normalized = raw.replace(/\r\n/g, '\n');
  const { headers, body } = splitHeaders(normalized);
  const parts: Record<string, string> = {};
  collectParts(headers, body, parts);
  return { raw: normalized, headers, subject: decodeWords(headers.subject ?? ''), text: parts['text/plain'] ?? '', html: parts['text/html'] ?? '' };
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
