import { readFileSync, statSync } from 'node:fs';
import { extname } from 'node:path';
import { ApiError } from '../../http/api-error.ts';
import { checkLogo, MAX_LOGO_BYTES, type StoredLogo } from '../../modules/clients/logo.ts';
import { CliError } from '../cli-context.ts';

// The check itself is the module's (the console's branding PUT runs the same one).
export { MAX_LOGO_BYTES, placeholderLogo, type StoredLogo } from '../../modules/clients/logo.ts';

/**
 * Reads `--logo <file>`: an .svg or .png of at most 256 KB whose content is what its name says,
 * checked by modules/clients/logo.ts.
 */
export function readLogo(path: string): StoredLogo {
  const extension = extname(path).toLowerCase();
  if (extension !== '.svg' && extension !== '.png') throw new CliError(`--logo: ${path} must be an .svg or .png file`);
  let size: number;
  try {
    const stat = statSync(path);
    if (!stat.isFile()) throw new Error('not a file');
    size = stat.size;
  } catch {
    throw new CliError(`--logo: cannot read ${path}`);
  }
  // Refused before reading: a huge file never sits in memory.
  if (size === 0 || size > MAX_LOGO_BYTES)
    throw new CliError(`--logo: ${path} is ${size} bytes; a logo must be 1 byte to ${MAX_LOGO_BYTES / 1024} KB`);
  try {
    return checkLogo(path, extension === '.png' ? 'image/png' : 'image/svg+xml', readFileSync(path));
  } catch (error) {
    if (error instanceof ApiError) throw new CliError(`--logo: ${error.message}`);
    throw error;
  }
}
