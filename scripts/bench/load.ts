/** One autocannon load: warm-up first (discarded), then the measured run. */
import autocannon from 'autocannon';
import './autocannon-bodies.ts';

export interface LoadSpec {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** A fresh body per request (distinct codes), called for every request sent. */
  nextBody?: () => string;
  connections: number;
}

export interface LoadResult {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  requests: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  /** 2xx answers, the warm-up's included: for a redeem load, the redemptions acknowledged. */
  acknowledged: number;
  connections: number;
  seconds: number;
}

function once(spec: LoadSpec, seconds: number): Promise<autocannon.Result> {
  const { nextBody } = spec;
  return autocannon({
    url: spec.url,
    method: spec.method ?? 'GET',
    headers: spec.headers ?? {},
    ...(spec.body === undefined ? {} : { body: spec.body }),
    ...(nextBody ? { requests: [{ setupRequest: (request: autocannon.Request) => ({ ...request, body: nextBody() }) }] } : {}),
    connections: spec.connections,
    duration: seconds,
  });
}

export async function load(spec: LoadSpec, seconds: number, warmupSeconds: number): Promise<LoadResult> {
  const warm = warmupSeconds > 0 ? (await once(spec, warmupSeconds))['2xx'] : 0;
  const result = summarise(await once(spec, seconds), spec.connections, seconds);
  return { ...result, acknowledged: result.acknowledged + warm };
}

/**
 * A case and the baseline side by side (decision 016): after the case's warm-up, `slices` turns
 * of each, `sliceSeconds` long, in the order baseline-case, case-baseline, … (so a neighbour's
 * load that grows or fades through the turns weighs on both alike), each side's requests added
 * up over its turns. On this shared machine the bare route alone moved between 26,000 and
 * 51,000 requests/s from one 4-second run to the next; a ratio to one baseline run taken before
 * an 8-second case swung with it by ±15 points. Latency: the median of the turns' p50 and the
 * worst of their p99.
 */
export async function loadSideBySide(
  spec: LoadSpec,
  baseline: LoadSpec,
  slices: number,
  sliceSeconds: number,
  warmupSeconds: number,
): Promise<{ result: LoadResult; baseline: LoadResult }> {
  const warm = warmupSeconds > 0 ? (await once(spec, warmupSeconds))['2xx'] : 0;
  const ours: autocannon.Result[] = [];
  const theirs: autocannon.Result[] = [];
  for (let turn = 0; turn < slices; turn++) {
    if (turn % 2 === 0) {
      theirs.push(await once(baseline, sliceSeconds));
      ours.push(await once(spec, sliceSeconds));
    } else {
      ours.push(await once(spec, sliceSeconds));
      theirs.push(await once(baseline, sliceSeconds));
    }
  }
  const result = combine(ours, spec.connections, slices * sliceSeconds);
  return {
    result: { ...result, acknowledged: result.acknowledged + warm },
    baseline: combine(theirs, baseline.connections, slices * sliceSeconds),
  };
}

function combine(results: autocannon.Result[], connections: number, seconds: number): LoadResult {
  const sum = (pick: (r: autocannon.Result) => number) => results.reduce((total, r) => total + pick(r), 0);
  const p50s = results.map((r) => r.latency.p50).sort((a, b) => a - b);
  const requests = sum((r) => r.requests.total);
  return {
    requestsPerSecond: Math.round(requests / seconds),
    p50: p50s[Math.floor(p50s.length / 2)]!,
    p99: Math.max(...results.map((r) => r.latency.p99)),
    requests,
    errors: sum((r) => r.errors),
    timeouts: sum((r) => r.timeouts),
    non2xx: sum((r) => r.non2xx),
    acknowledged: sum((r) => r['2xx']),
    connections,
    seconds,
  };
}

/** Runs the spec against several URLs at once (one server process each) and adds them up. */
export async function loadAcross(specs: LoadSpec[], seconds: number, warmupSeconds: number): Promise<LoadResult> {
  const warm = warmupSeconds > 0 ? (await Promise.all(specs.map((s) => once(s, warmupSeconds)))).reduce((sum, r) => sum + r['2xx'], 0) : 0;
  const results = await Promise.all(specs.map((s) => once(s, seconds)));
  const parts = results.map((r, i) => summarise(r, specs[i]!.connections, seconds));
  return {
    requestsPerSecond: parts.reduce((sum, p) => sum + p.requestsPerSecond, 0),
    // Latency percentiles of the parts do not add: the worse of the two stands for both.
    p50: Math.max(...parts.map((p) => p.p50)),
    p99: Math.max(...parts.map((p) => p.p99)),
    requests: parts.reduce((sum, p) => sum + p.requests, 0),
    errors: parts.reduce((sum, p) => sum + p.errors, 0),
    timeouts: parts.reduce((sum, p) => sum + p.timeouts, 0),
    non2xx: parts.reduce((sum, p) => sum + p.non2xx, 0),
    acknowledged: warm + parts.reduce((sum, p) => sum + p.acknowledged, 0),
    connections: parts.reduce((sum, p) => sum + p.connections, 0),
    seconds,
  };
}

function summarise(result: autocannon.Result, connections: number, seconds: number): LoadResult {
  return {
    // Completed 2xx-or-not responses over the run, not autocannon's per-second sample mean.
    requestsPerSecond: Math.round(result.requests.total / seconds),
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    acknowledged: result['2xx'],
    connections,
    seconds,
  };
}
