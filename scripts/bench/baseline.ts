import { spawn } from 'node:child_process';
import { join } from 'node:path';

export interface BareServer {
  url: string;
  stop(): Promise<void>;
}

/** Starts scripts/bench/bare-server.ts in a child process and returns its route's URL. */
export async function startBareServer(): Promise<BareServer> {
  const child = spawn(process.execPath, [join(import.meta.dirname, 'bare-server.ts')], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const port = await new Promise<string>((resolve, reject) => {
    child.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString().trim()));
    child.once('exit', (code) => reject(new Error(`the bare Fastify server exited with ${code}`)));
  });
  return {
    url: `http://127.0.0.1:${port}/bare`,
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}
