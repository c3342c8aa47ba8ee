// Loaded with `node --import` by scripts/bench/memory-run.ts: on SIGUSR2 the server writes where
// its memory is (process.memoryUsage and V8's heap spaces) to MEMORY_PROBE_FILE. Plain JavaScript,
// so that probing the compiled server does not load the TypeScript stripper it is meant to avoid.
// When `<MEMORY_PROBE_FILE>.gc` exists at the signal, the probe first runs one full garbage
// collection (and deletes that file; the server must run with --expose-gc), to see what a collection gives back: the file holds the
// collection's flavour, `regular` (a full mark-compact) or `last-resort` (V8's memory-reducing
// collections, as under memory pressure: compacts and releases the pooled pages).
/* global process */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { getHeapSpaceStatistics } from 'node:v8';

const file = process.env.MEMORY_PROBE_FILE;
if (file) {
  process.on('SIGUSR2', () => {
    let gcCpuMs;
    if (existsSync(`${file}.gc`)) {
      const flavor = readFileSync(`${file}.gc`, 'utf8').trim() || 'regular';
      rmSync(`${file}.gc`);
      // memory-run.ts starts the server with --expose-gc when it asks for collections.
      const gc = globalThis.gc;
      // CPU, not wall time: on a shared machine the wall time is mostly waiting for a core.
      const start = process.cpuUsage();
      gc({ type: 'major', execution: 'sync', flavor });
      const used = process.cpuUsage(start);
      gcCpuMs = Math.round((used.user + used.system) / 100) / 10;
    }
    const spaces = Object.fromEntries(getHeapSpaceStatistics().map((s) => [s.space_name, Math.round(s.space_size / 2 ** 20)]));
    const mb = Object.fromEntries(Object.entries(process.memoryUsage()).map(([k, v]) => [k, Math.round(v / 2 ** 20)]));
    writeFileSync(file, JSON.stringify({ ...(gcCpuMs === undefined ? {} : { gcCpuMs }), ...mb, spaces }));
  });
}
