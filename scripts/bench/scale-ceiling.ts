/**
 * What this machine allows the scale-out case (decision 034). The portal processes, PostgreSQL
 * and the load generator (the bench's own process, autocannon) share the same cores, so two
 * portal processes can only beat one by the share of the machine that one process leaves idle:
 *
 *   one process  ≤ min(1 core / portal µs,  cores / (portal + PostgreSQL + load generator µs))
 *   two          ≤ min(2 cores / portal µs, cores / (portal + PostgreSQL + load generator µs))
 *
 * With one portal process bound by its core, ×1.5 needs cores ≥ 1.5 × (all µs) / (portal µs).
 */

/** CPU µs each party spent per request during one measured load. */
export interface PartyCpu {
  /** All portal processes together. */
  portal: number;
  /** The PostgreSQL server: postmaster, backends and background processes. */
  postgres: number;
  /** The bench's own process, which runs autocannon. */
  loadGenerator: number;
}

export interface ScaleCeiling {
  cores: number;
  /** requests/s one process can reach here: its own core, or the whole machine if that is less. */
  oneBound: number;
  /** requests/s two processes can reach here: the whole machine, or their two cores if that is less. */
  twoBound: number;
  /** twoBound / oneBound: the best × this machine allows at the measured costs. */
  bestRatio: number;
  /** Cores that ×1.5 needs at the one-process run's costs (the load generator on the same machine). */
  coresForOneAndAHalf: number;
}

const total = (c: PartyCpu) => c.portal + c.postgres + c.loadGenerator;
const round = (x: number, digits = 0) => Math.round(x * 10 ** digits) / 10 ** digits;

/** The bounds from the measured costs; `two.portal` is both processes' µs together per request. */
export function scaleCeiling(one: PartyCpu, two: PartyCpu, cores: number): ScaleCeiling {
  const machine = (c: PartyCpu) => (cores * 1e6) / total(c);
  const oneBound = Math.min(1e6 / one.portal, machine(one));
  const twoBound = Math.min((2 * 1e6) / two.portal, machine(two));
  return {
    cores,
    oneBound: round(oneBound),
    twoBound: round(twoBound),
    bestRatio: round(twoBound / oneBound, 2),
    coresForOneAndAHalf: round((1.5 * total(one)) / one.portal, 1),
  };
}

/** µs of CPU per request from tick deltas (USER_HZ) or µs, over the requests answered. */
export function perRequest(
  ticks: { portal: number; postgres: number },
  loadGeneratorMicros: number,
  requests: number,
  tickMicros: number,
): PartyCpu {
  const per = (micros: number) => (requests > 0 ? round(micros / requests) : 0);
  return { portal: per(ticks.portal * tickMicros), postgres: per(ticks.postgres * tickMicros), loadGenerator: per(loadGeneratorMicros) };
}

export interface CeilingCase {
  name: string;
  one: { requestsPerSecond: number };
  two: { requestsPerSecond: number };
  speedup: number;
  perRequest?: { one: PartyCpu; two: PartyCpu };
  ceiling?: ScaleCeiling;
  /** Cores that other processes (the neighbours on a shared machine) used meanwhile. */
  othersCores?: { one: number; two: number };
}

/** Busy cores of the whole machine less the parties' own: what the neighbours took. */
export function othersCores(machineBusyShare: number, cores: number, costs: PartyCpu, requestsPerSecond: number): number {
  return Math.max(0, round(machineBusyShare * cores - (total(costs) * requestsPerSecond) / 1e6, 2));
}

/** The scale-out section's second table and its reading, for latest.md. */
export function ceilingLines(cases: CeilingCase[]): string[] {
  const measured = cases.filter((c) => c.perRequest && c.ceiling);
  if (measured.length === 0) return [];
  const n = (x: number) => x.toLocaleString('en-US');
  const party = (c: PartyCpu) => `${n(c.portal)} + ${n(c.postgres)} + ${n(c.loadGenerator)} = ${n(total(c))}`;
  const lines = [
    `CPU µs per request, portal + PostgreSQL + load generator (autocannon, in the bench's process) = all, and what ${measured[0]!.ceiling!.cores} cores allow at those costs:`,
    '',
    "| case | one process µs | two processes µs | one process ≤ /s | two ≤ /s | best × here | measured × | cores for ×1.5 | other processes' cores (one / two) |",
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const c of measured) {
    const { one, two } = c.perRequest!;
    const ceiling = c.ceiling!;
    lines.push(
      `| \`${c.name}\` | ${party(one)} | ${party(two)} | ${n(ceiling.oneBound)} | ${n(ceiling.twoBound)} | ${ceiling.bestRatio} | ${c.speedup} | ${ceiling.coresForOneAndAHalf} | ${c.othersCores ? `${c.othersCores.one} / ${c.othersCores.two}` : '–'} |`,
    );
  }
  lines.push(
    '',
    'One process is bound by its own core (1 s / portal µs) or by the machine (cores / all µs); two processes only by the machine. ' +
      'The load generator and PostgreSQL run on the same cores as the portals, so ×1.5 needs cores ≥ 1.5 × all µs / portal µs (docs/decisions/034). ' +
      "Other processes' cores: what the rest of the machine used meanwhile (on a shared machine, the neighbours), which the bounds do not subtract.",
  );
  return lines;
}
