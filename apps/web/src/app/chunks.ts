import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

/** Spec section 9: a page chunk that has not arrived after 120 s counts as failed. */
export const CHUNK_TIMEOUT_MS = 120_000;

export type ChunkLoadReason = 'timeout' | 'missing' | 'other';

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
const MISSING = /failed to fetch dynamically imported module|error loading dynamically imported module|importing a module script failed|404/i;

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
  Component: LazyExoticComponent<ComponentType>;
}

export function createChunk(importer: () => Promise<PageModule>, timeoutMs = CHUNK_TIMEOUT_MS): Chunk {
  let pending: Promise<PageModule> | undefined;
  const load = () => {
    pending ??= withTimeout(importer(), timeoutMs).catch((error: unknown) => {
      pending = undefined;
      throw error;
    });
    return pending;
  };
  return { load, Component: lazy(load) };
}
