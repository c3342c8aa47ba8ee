import { Component, type ReactNode } from 'react';
import { toChunkLoadError, type ChunkLoadError } from './chunks.ts';

interface Props {
  /** Renders the error screen; it gets the error with its reason. */
  fallback: (error: ChunkLoadError) => ReactNode;
  children: ReactNode;
}

/** Catches a page whose script could not be loaded (React.lazy rejects) and shows why. */
export class ChunkErrorBoundary extends Component<Props, { error: ChunkLoadError | null }> {
  override state = { error: null as ChunkLoadError | null };

  static getDerivedStateFromError(error: unknown) {
    return { error: toChunkLoadError(error) };
  }

  override render() {
    return this.state.error ? this.props.fallback(this.state.error) : this.props.children;
  }
}
