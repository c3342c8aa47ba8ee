import '@testing-library/jest-dom/vitest';
import { afterEach } from 'vitest';
import { cleanup, configure } from '@testing-library/react';

// findBy… and waitFor wait up to 1 s by default; npm test runs these beside two other lanes on
// 2 cores (decision 060), where a render that takes 50 ms alone can take seconds.
configure({ asyncUtilTimeout: 10_000 });

afterEach(() => {
  cleanup();
  sessionStorage.clear();
  localStorage.clear();
});

// jsdom has no layout: scrolling is a no-op here instead of a "not implemented" warning.
window.scrollTo = () => {};
