// Loaded with `node --import` by scripts/bench/imports.ts into each import it measures: at exit
// the process writes what it cost to IMPORT_STATS_FILE. From the process itself, because a child's
// /proc entry is gone once it ended. Plain JavaScript, loaded before anything else.
// - writeBytes: /proc/self/io write_bytes, the bytes this process sent towards storage (the database,
//   its WAL and SQLite's temporary journals alike; cancelledWriteBytes: those of files deleted or
//   cut before they reached the disk);
// - peakRssBytes: getrusage's maxrss, the process's peak resident memory.
/* global process */
import { readFileSync, writeFileSync } from 'node:fs';

const file = process.env.IMPORT_STATS_FILE;
if (file) {
  process.on('exit', () => {
    let io = '';
    try {
      io = readFileSync('/proc/self/io', 'utf8');
    } catch {
      // Not Linux: the bytes are unknown (-1).
    }
    const field = (name) => Number(new RegExp(`^${name}: (\\d+)`, 'm').exec(io)?.[1] ?? -1);
    const usage = process.resourceUsage();
    writeFileSync(
      file,
      JSON.stringify({
        writeBytes: field('write_bytes'),
        cancelledWriteBytes: field('cancelled_write_bytes'),
        peakRssBytes: usage.maxRSS * 1024,
        cpuSeconds: (usage.userCPUTime + usage.systemCPUTime) / 1e6,
      }),
    );
  });
}
