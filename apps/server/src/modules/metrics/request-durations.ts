import type { Metric, MetricValueWithName, Registry } from 'prom-client';

/** llhttp accepts some thirty methods; the others are folded into one label. */
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;
const OTHER_METHOD = METHODS.length;

interface Series {
  method: string;
  route: string;
  status: number;
  /** Observations per bucket (the last: above every bound), not yet cumulative. */
  counts: Float64Array;
  sum: number;
  count: number;
}

/**
 * rewards_http_request_duration_seconds, the one thing every request pays for (decision 079):
 * prom-client's Histogram builds a label object, a key string and a closure per observation
 * (about 1 µs, measured); here a request finds its series by the route's template (the same
 * string every time) and a number made of its status and method, and adds one to an array. The
 * text is prom-client's own histogram's, made when Prometheus asks.
 */
export class RequestDurations {
  readonly name = 'rewards_http_request_duration_seconds';
  readonly help = 'Time from the request to the end of its reply, by method, route template and status';
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  readonly #bounds: readonly number[];
  readonly #series = new Map<string, Map<number, Series>>();

  constructor(bounds: readonly number[], registry: Registry) {
    this.#bounds = bounds;
    // prom-client takes any object that answers get() in its metrics' shape.
    registry.registerMetric(this as unknown as Metric);
  }

  observe(method: string, route: string, status: number, seconds: number): void {
    let byRoute = this.#series.get(route);
    if (byRoute === undefined) this.#series.set(route, (byRoute = new Map()));
    let methodIndex = METHODS.indexOf(method as (typeof METHODS)[number]);
    if (methodIndex === -1) methodIndex = OTHER_METHOD;
    const key = status * 8 + methodIndex;
    let series = byRoute.get(key);
    if (series === undefined) {
      series = {
        method: METHODS[methodIndex] ?? 'OTHER',
        route,
        status,
        counts: new Float64Array(this.#bounds.length + 1),
        sum: 0,
        count: 0,
      };
      byRoute.set(key, series);
    }
    const bounds = this.#bounds;
    let bucket = 0;
    while (bucket < bounds.length && seconds > bounds[bucket]!) bucket += 1;
    series.counts[bucket]! += 1;
    series.sum += seconds;
    series.count += 1;
  }

  /** For prom-client's registry: the buckets (cumulative, then +Inf), sum and count of every series. */
  async get() {
    const values: Array<MetricValueWithName<string>> = [];
    for (const byRoute of this.#series.values())
      for (const { method, route, status, counts, sum, count } of byRoute.values()) {
        const labels = { method, route, status };
        let cumulative = 0;
        this.#bounds.forEach((bound, i) => {
          cumulative += counts[i]!;
          values.push({ metricName: `${this.name}_bucket`, labels: { ...labels, le: bound }, value: cumulative });
        });
        values.push({ metricName: `${this.name}_bucket`, labels: { ...labels, le: '+Inf' }, value: count });
        values.push({ metricName: `${this.name}_sum`, labels, value: sum });
        values.push({ metricName: `${this.name}_count`, labels, value: count });
      }
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }

  reset(): void {
    this.#series.clear();
  }
}
