export interface WakeLoopOptions {
  /**
   * One pass of the worker. True asks for another pass at once (more may be due); anything else
   * waits for the next wake-up or poll. A pass that throws is reported to onError and retried at
   * the next poll.
   */
  pass: () => Promise<boolean | void>;
  /** Subscribes to the wake-up signal; returns the unsubscribe. */
  subscribe: (wake: () => void) => () => void;
  pollMs: number;
  onError: (error: unknown) => void;
}

export interface WakeLoop {
  /** Stops polling and waits for the pass under way. */
  stop(): Promise<void>;
  /** Resolves when the pass under way (if any) has finished; for tests. */
  idle(): Promise<void>;
}

/**
 * A background worker of this process (the mail and the webhook deliveries): a pass at start,
 * after every wake-up signal and every pollMs after the last pass ended. Passes never overlap: a
 * signal during a pass runs one more after it. Its timers never keep the process alive.
 */
export function startWakeLoop(options: WakeLoopOptions): WakeLoop {
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;

  const run = (): void => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    if (timer) clearTimeout(timer);
    running = (async () => {
      do {
        again = false;
        try {
          while ((await options.pass()) === true && !stopped);
        } catch (error) {
          options.onError(error);
        }
      } while (again && !stopped);
    })().finally(() => {
      running = undefined;
      if (!stopped) timer = setTimeout(run, options.pollMs).unref();
    });
  };

  const unsubscribe = options.subscribe(run);
  run();
  return {
    async stop() {
      stopped = true;
      unsubscribe();
      if (timer) clearTimeout(timer);
      await running;
    },
    async idle() {
      while (running) await running;
    },
  };
}
