// Loaded with `node --import` by scripts/bench/memory-run.ts: on SIGUSR2 the server writes where
// its memory is (process.memoryUsage and V8's heap spaces) to MEMORY_PROBE_FILE. Plain JavaScript,
// so that probing the compiled server does not load the TypeScript stripper it is meant to avoid.
/* global process */
import { writeFileSync } from 'node:fs';
import { getHeapSpaceStatistics } from 'node:v8';

const file = process.env.MEMORY_PROBE_FILE;
if (file) {
  process.on('SIGUSR2', () => {
    const spaces = Object.fromEntries(getHeapSpaceStatistics().map((s) => [s.space_name, Math.round(s.space_size / 2 ** 20)]));
    const mb = Object.fromEntries(Object.entries(process.memoryUsage()).map(([k, v]) => [k, Math.round(v / 2 ** 20)]));
    writeFileSync(file, JSON.stringify({ ...mb, spaces }));
  });
}
