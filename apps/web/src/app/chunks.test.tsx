import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { createChunk, toChunkLoadError, withTimeout, ChunkLoadError } from './chunks.ts';
import { ChunkErrorBoundary } from './ChunkErrorBoundary.tsx';

describe('chunk loading', () => {
  it('names a failed import ChunkLoadError with reason missing or other', () => {
    const missing = toChunkLoadError(new TypeError('Failed to fetch dynamically imported module: /assets/x.js'));
    expect(missing).toMatchObject({ name: 'ChunkLoadError', reason: 'missing' });
    expect(toChunkLoadError(new Error('SyntaxError somewhere'))).toMatchObject({ name: 'ChunkLoadError', reason: 'other' });
  });

  it('gives up after the timeout with reason timeout', async () => {
    vi.useFakeTimers();
    try {
      const pending = withTimeout(new Promise(() => {}), 120_000);
      const assertion = expect(pending).rejects.toMatchObject({ name: 'ChunkLoadError', reason: 'timeout' });
      await vi.advanceTimersByTimeAsync(120_000);
      await assertion;
    } finally {
      vi.useRealTimers();
    }
  });

  it('may be tried again after a failure', async () => {
    const importer = vi
      .fn()
      .mockRejectedValueOnce(new Error('offline'))
      .mockResolvedValueOnce({ default: () => null });
    const chunk = createChunk(importer);
    await expect(chunk.load()).rejects.toBeInstanceOf(ChunkLoadError);
    await expect(chunk.load()).resolves.toHaveProperty('default');
    expect(importer).toHaveBeenCalledTimes(2);
  });

  it('renders a page already downloaded at once, without the loading fallback', async () => {
    const chunk = createChunk(() => Promise.resolve({ default: () => <p>the page</p> }));
    await chunk.load();
    render(
      <Suspense fallback="loading">
        <chunk.Component />
      </Suspense>,
    );
    // Synchronously there: no commit showed the fallback (which would shift the footer).
    expect(screen.getByText('the page')).toBeInTheDocument();
    expect(screen.queryByText('loading')).toBeNull();
  });

  it('shows the error screen when a page cannot load', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const chunk = createChunk(() => Promise.reject(new TypeError('Failed to fetch dynamically imported module')));
    render(
      <ChunkErrorBoundary fallback={(error) => <p>failed: {error.reason}</p>}>
        <Suspense fallback="loading">
          <chunk.Component />
        </Suspense>
      </ChunkErrorBoundary>,
    );
    expect(await screen.findByText('failed: missing')).toBeInTheDocument();
  });
});
