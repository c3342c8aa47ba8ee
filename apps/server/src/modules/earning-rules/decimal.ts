import type { EarningRounding } from '@rewards/contract/earning-rules';

/**
 * Exact decimal arithmetic for earning (decision 095): an amount "120.50" is the integer 12050
 * over 10^2, held as bigints, so points per amount are a fraction of two integers rounded once,
 * as the rule says. No floating-point number ever carries money.
 */

export interface Decimal {
  /** The digits as an integer: "120.50" → 12050n. */
  units: bigint;
  /** How many of them are decimals: "120.50" → 2. */
  scale: number;
}

const DECIMAL = /^(\d+)(?:\.(\d+))?$/;

/** Parses a decimal string the contract has checked (DECIMAL_PATTERN); throws on anything else. */
export function parseDecimal(text: string): Decimal {
  const match = DECIMAL.exec(text.trim());
  if (!match) throw new Error(`not a decimal: ${text}`);
  const fraction = match[2] ?? '';
  return { units: BigInt(`${match[1]}${fraction}`), scale: fraction.length };
}

// Powers of ten up to the largest a product of two scales (6 decimals each, and a 15-digit amount) can need.
const POWERS = Array.from({ length: 40 }, (_, n) => 10n ** BigInt(n));
const pow10 = (n: number) => POWERS[n] ?? 10n ** BigInt(n);

/** -1, 0 or 1 as a is less than, equal to or more than b. */
export function compareDecimals(a: Decimal, b: Decimal): number {
  const left = a.units * pow10(b.scale);
  const right = b.units * pow10(a.scale);
  return left < right ? -1 : left > right ? 1 : 0;
}

/** numerator / denominator (both non-negative, denominator > 0) as a whole number, rounded down, up, or to the nearest (halves up). */
export function roundFraction(numerator: bigint, denominator: bigint, rounding: EarningRounding): bigint {
  switch (rounding) {
    case 'down':
      return numerator / denominator;
    case 'up':
      return (numerator + denominator - 1n) / denominator;
    case 'nearest':
      return (2n * numerator + denominator) / (2n * denominator);
  }
}

/** pointsPer whole points for each `per` of `amount`, as a fraction: pointsPer × amount ÷ per. */
export function pointsPerFraction(pointsPer: number, amount: Decimal, per: Decimal): { numerator: bigint; denominator: bigint } {
  return {
    numerator: BigInt(pointsPer) * amount.units * pow10(per.scale),
    denominator: per.units * pow10(amount.scale),
  };
}

/** The extra points of a promotion multiplying `base` by `factor`: base × (factor − 1), as a fraction. */
export function extraFraction(base: number, factor: Decimal): { numerator: bigint; denominator: bigint } {
  const one = pow10(factor.scale);
  return { numerator: BigInt(base) * (factor.units - one), denominator: one };
}

/** A bigint of points as a number, no more than `max`. */
export function atMost(points: bigint, max: number): number {
  return points > BigInt(max) ? max : Number(points);
}

/** The decimal written back with its scale ("120.50"). */
export function formatDecimal(d: Decimal): string {
  const digits = d.units.toString().padStart(d.scale + 1, '0');
  return d.scale === 0 ? digits : `${digits.slice(0, -d.scale)}.${digits.slice(-d.scale)}`;
}
