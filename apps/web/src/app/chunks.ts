import { createElement, lazy, useState, type ComponentType } from 'react';

/** Spec section 9: a page chunk that has not arrived after 120 s counts as failed. */
const CHUNK_TIMEOUT_MS = 120_000;

type ChunkLoadReason = 'timeout' | 'missing' | 'other';

/** A page's script that could not be loaded (spec section 8). */
export class ChunkLoadError extends Error {
  override name = 'ChunkLoadError';
  readonly reason: ChunkLoadReason;

  constructor(reason: ChunkLoadReason, message: string) {
    super(message);
    this.reason = reason;
  }
}

// Browsers word a missing module differently: Chromium, Firefox, Safari.
const MISSING =
  /failed to fetch dynamically imported module|error loading dynamically imported module|importing a module script failed|404/i;

export function toChunkLoadError(error: unknown): ChunkLoadError {
  if (error instanceof ChunkLoadError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new ChunkLoadError(MISSING.test(message) ? 'missing' : 'other', message);
}

export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new ChunkLoadError('timeout', `Chunk not loaded after ${ms} ms`)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(toChunkLoadError(error));
      },
    );
  });
}

type PageModule = { default: ComponentType };

export interface Chunk {
  /** Starts (or joins) the download; a failed one may be tried again. */
  load(): Promise<PageModule>;
  Component: ComponentType;
}

export function createChunk(importer: () => Promise<PageModule>, timeoutMs = CHUNK_TIMEOUT_MS): Chunk {
  let pending: Promise<PageModule> | undefined;
  let loaded: PageModule | undefined;
  const load = () => {
    pending ??= withTimeout(importer(), timeoutMs).then(
      (module) => {
        loaded = module;
        return module;
      },
      (error: unknown) => {
        pending = undefined;
        throw error;
      },
    );
    return pending;
  };
  const Lazy = lazy(load);
  /**
   * A page already downloaded (start-up waits for the first one, the rest are preloaded) renders
   * at once: React.lazy would show the loading fallback for one commit even then, and the page
   * arriving a moment later moves the footer (a layout shift, decision 015). Chosen once per
   * mount, so a page never swaps its component type (and loses its state) while shown.
   */
  function Component() {
    const [ready] = useState(() => loaded);
    return ready ? createElement(ready.default) : createElement(Lazy);
  }
  return { load, Component };
}
