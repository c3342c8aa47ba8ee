/**
 * The other participant's load in the statement case (statement-load.ts), in its own process, as
 * another client machine would be: reading its replies must not delay the bench process's own
 * measurement of `GET user`. Started once per case (a process start is hundreds of ms of CPU).
 *
 * Usage: node statement-puller.ts <url> <headers as JSON> <connections>; then, for each line
 * `<seconds>` on its standard input, it prints "started" as the load starts and autocannon's
 * result as one line of JSON when it ends. It exits when its input closes.
 */
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';
import './autocannon-bodies.ts';

const [url, headers, connections] = process.argv.slice(2);
if (!url || !headers || !connections) throw new Error('usage: statement-puller.ts <url> <headers JSON> <connections>');
for await (const line of createInterface({ input: process.stdin })) {
  const seconds = Number(line);
  if (!(seconds > 0)) throw new Error(`statement-puller: "${line}" is not a number of seconds`);
  const running = autocannon({
    url,
    headers: JSON.parse(headers) as Record<string, string>,
    connections: Number(connections),
    duration: seconds,
  });
  process.stdout.write('started\n');
  process.stdout.write(`${JSON.stringify(await running)}\n`);
}
