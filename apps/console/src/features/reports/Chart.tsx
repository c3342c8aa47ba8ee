import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export interface ChartSeries {
  label: string;
  values: number[];
  color: string;
  /** Bars (the default; at most two series of bars) or a line. */
  kind?: 'bars' | 'line';
}

interface ChartProps {
  /** What the chart shows, read by screen readers in place of the drawing; the table beside it has the figures. */
  label: string;
  /** One label per x position (months, statuses, batches, clients). */
  categories: string[];
  series: ChartSeries[];
  height?: number;
  /** Formats the y axis' ticks. */
  format?: (n: number) => string;
}

const bars = uPlot.paths.bars!;

/**
 * A chart drawn by uPlot (canvas, ~50 kB, no dependencies; decision 067), loaded with the reports
 * page only. The x axis is the categories' positions; two series of bars stand side by side.
 * It follows its container's width, so it fits 1280 and 768 px alike.
 */
export function Chart({ label, categories, series, height = 240, format }: ChartProps) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const barSeries = series.filter((s) => (s.kind ?? 'bars') === 'bars').length;
    let barIndex = 0;
    const options: uPlot.Options = {
      width: Math.max(200, element.clientWidth),
      height,
      scales: {
        x: { time: false, range: [-0.5, categories.length - 0.5] },
        // From zero: a bar's height is its value, not its distance from the smallest one.
        y: { range: (_u, min, max) => [Math.min(0, min), max > 0 ? max * 1.08 : 1] },
      },
      // The series' names only: the figures are in the table.
      legend: { show: series.length > 1, live: false },
      cursor: { drag: { x: false, y: false } },
      axes: [
        {
          splits: () => categories.map((_, i) => i),
          // Every label where there is room (about 64 px each); else every second, third… so none overlap.
          values: (u, splits) => {
            const every = Math.max(1, Math.ceil((categories.length * 64) / Math.max(1, u.bbox.width / devicePixelRatio)));
            return splits.map((i) => (i % every === 0 ? (categories[i] ?? '') : ''));
          },
          // Long category names (batches, clients) are cut rather than overlap.
          size: 40,
          gap: 4,
        },
        { values: (_u, splits) => splits.map((n) => (format ? format(n) : String(n))), size: 70 },
      ],
      series: [
        {},
        ...series.map((s) => {
          if ((s.kind ?? 'bars') === 'line') return { label: s.label, stroke: s.color, width: 2, points: { show: true, size: 5 } };
          // One bar series is centred on its slot; two stand side by side (the first left of the slot's middle).
          const align = barSeries === 1 ? 0 : barIndex++ === 0 ? -1 : 1;
          return {
            label: s.label,
            stroke: s.color,
            fill: s.color,
            width: 0,
            paths: bars({ size: [barSeries === 1 ? 0.6 : 0.35, 48], align: align as -1 | 0 | 1 }),
            points: { show: false },
          };
        }),
      ],
    };
    const data: uPlot.AlignedData = [categories.map((_, i) => i), ...series.map((s) => s.values)];
    const plot = new uPlot(options, data, element);
    const resize = new ResizeObserver(() => plot.setSize({ width: Math.max(200, element.clientWidth), height }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [categories, series, height, format]);
  return <div ref={box} className="chart" role="img" aria-label={label} />;
}
