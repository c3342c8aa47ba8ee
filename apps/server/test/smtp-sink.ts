import { SMTPServer } from 'smtp-server';
import { parseEml } from '../src/modules/mail/eml.ts';
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
  return parseEml(raw);
}
