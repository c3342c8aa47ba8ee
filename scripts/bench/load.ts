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
