import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

const COMPRESSIBLE = /\.(js|css|svg|json|html)$/;

/**
 * Writes .br and .gz beside every text asset of the build, once, at the highest levels, so the
 * server sends them as they are (@fastify/static preCompressed) instead of compressing per request.
 */
export function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'rewards-precompress',
    apply: 'build',
    configResolved(config) {
      // resolve, not join: an absolute --outDir stays as it is.
      outDir = resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      const walk = (dir: string): string[] =>
        readdirSync(dir).flatMap((name) => {
          const path = join(dir, name);
          return statSync(path).isDirectory() ? walk(path) : [path];
        });
      for (const file of walk(outDir).filter((f) => COMPRESSIBLE.test(f))) {
        const content = readFileSync(file);
        if (content.length < 1024) continue;
        writeFileSync(`${file}.br`, brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
        writeFileSync(`${file}.gz`, gzipSync(content, { level: 9 }));
      }
    },
  };
}
