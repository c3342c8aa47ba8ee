import type { Command } from 'commander';
import { csvText } from '@rewards/contract/csv';
import { forecastExpiry, ForecastInputError, type ExpiryForecast } from '../../modules/expiry/forecast.ts';
import { action, CliError } from '../cli-context.ts';

interface ForecastOptions {
  client?: string;
  asOf?: string;
  csv?: boolean;
}

/**
 * `rewards points forecast --client ID [--as-of YYYY-MM-DD] [--csv]`: what expires in each of the
 * next twelve months and the outstanding balance (the program's liability), issue 19 §4.
 */
export function registerPointsForecast(points: Command): void {
  const forecast = points
    .command('forecast')
    .description("what of a client's outstanding points expires in each of the next twelve months, if nobody spends them")
    .option('--client <id>', 'the client')
    .option('--as-of <date>', "the first day counted, YYYY-MM-DD in the client's time zone (default today there)")
    .option('--csv', 'print the months as CSV (month,points) instead of the summary');
  action<ForecastOptions>(forecast, async (db, { options }) => {
    if (!options.client) throw new CliError('--client <id> is required');
    if (options.asOf !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(options.asOf))
      throw new CliError(`--as-of: "${options.asOf}" is not a day: give YYYY-MM-DD`);
    const result = await forecastExpiry(db, options.client, options.asOf === undefined ? {} : { asOf: options.asOf }).catch(
      (error: unknown) => {
        if (error instanceof ForecastInputError) throw new CliError(error.message);
        throw error;
      },
    );
    return { human: options.csv ? forecastCsv(result) : summary(result), json: result };
  });
}

const number = new Intl.NumberFormat('en-US');

function summary(f: ExpiryForecast): string {
  const width = Math.max(...f.months.map((m) => number.format(m.points).length), 6);
  return [
    `${f.clientId}: points expiring from ${f.from} to ${f.until} (policy ${f.policy}, ${f.timeZone}), if nobody spends them`,
    ...f.months.map((m) => `  ${m.month}  ${number.format(m.points).padStart(width)}`),
    `Outstanding today: ${number.format(f.outstanding)} points; expected to expire in twelve months: ${number.format(f.expiring)}; left after: ${number.format(f.outstandingAfter)}.`,
  ].join('\n');
}

/** The months as CSV by the one writer (decision 073), points as numbers; printed on a terminal, so no byte order mark. */
export function forecastCsv(f: Pick<ExpiryForecast, 'months'>): string {
  return csvText(
    ['month', 'points'],
    f.months.map((m) => [m.month, m.points]),
    { bom: false },
  ).trimEnd();
}
