import type { FastifyBaseLogger } from 'fastify';
import { randomUUID } from 'node:crypto';

/**
 * Request ids: UUID-shaped (logs and tests read them as such), a random part per app and a
 * counter, instead of a fresh random UUID for every request (docs/decisions/028). Unique within
 * the process; the random part tells processes apart.
 */
export function requestIdGenerator(): () => string {
  const prefix = randomUUID().slice(0, 24);
  let counter = 0;
  return () => prefix + (++counter).toString(16).padStart(12, '0');
}

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';
type LogFn = (...args: unknown[]) => void;
type ChildOptions = Parameters<FastifyBaseLogger['child']>[1];
/** Fastify's logger is pino's, which answers isLevelEnabled. */
type Logger = FastifyBaseLogger & { isLevelEnabled(level: string): boolean };

/**
 * The request's logger, made when a line is actually written. Fastify gives every request a
 * pino child carrying its request id; at the portal's usual levels almost no request writes a
 * line (requests are logged at debug, decision 014), so building the child per request was work
 * thrown away. A line at an enabled level, a nested child or a level read gets the real child,
 * built with the same bindings and options, so lines are exactly as before.
 */
class LazyRequestLogger {
  readonly #parent: Logger;
  readonly #bindings: Record<string, unknown>;
  readonly #options: ChildOptions;
  #real: Logger | undefined;

  constructor(parent: Logger, bindings: Record<string, unknown>, options: ChildOptions) {
    this.#parent = parent;
    this.#bindings = bindings;
    this.#options = options;
  }

  real(): Logger {
    return (this.#real ??= this.#parent.child(this.#bindings, this.#options) as Logger);
  }

  #write(level: Level, args: unknown[]): void {
    if (this.#real === undefined && !this.#parent.isLevelEnabled(level)) return;
    (this.real()[level] as LogFn)(...args);
  }

  fatal(...args: unknown[]): void {
    this.#write('fatal', args);
  }
  error(...args: unknown[]): void {
    this.#write('error', args);
  }
  warn(...args: unknown[]): void {
    this.#write('warn', args);
  }
  info(...args: unknown[]): void {
    this.#write('info', args);
  }
  debug(...args: unknown[]): void {
    this.#write('debug', args);
  }
  trace(...args: unknown[]): void {
    this.#write('trace', args);
  }
  silent(): void {}
  child(bindings: Record<string, unknown>, options?: ChildOptions): FastifyBaseLogger {
    return this.real().child(bindings, options);
  }
  isLevelEnabled(level: string): boolean {
    return (this.#real ?? this.#parent).isLevelEnabled(level);
  }
  get level(): string {
    return this.real().level;
  }
  set level(level: string) {
    this.real().level = level;
  }
}

/**
 * Whether a line at debug would be written (pino, and the lazy logger above, answer it; any other
 * logger is assumed to write): lets a caller skip building a line's object (docs/decisions/035).
 */
export function writesDebug(log: FastifyBaseLogger): boolean {
  const { isLevelEnabled } = log as Partial<Logger>;
  return typeof isLevelEnabled === 'function' ? isLevelEnabled.call(log, 'debug') : true;
}

/**
 * Fastify's `childLoggerFactory`: a lazy child unless the route sets its own level or serializers
 * (then pino's child at once, as Fastify would).
 */
export function lazyChildLogger(logger: FastifyBaseLogger, bindings: Record<string, unknown>, options: ChildOptions): FastifyBaseLogger {
  if (options && Object.keys(options).length > 0) return logger.child(bindings, options);
  return new LazyRequestLogger(logger as Logger, bindings, options) as unknown as FastifyBaseLogger;
}
