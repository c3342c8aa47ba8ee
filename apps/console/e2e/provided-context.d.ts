// What harness/global-setup.ts hands to the console's browser tests through inject().
import 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    /** http://127.0.0.1:PORT: the participant portal (the demo's Acme answers on 127.0.0.1). */
    baseUrl: string;
    /** http://console.localhost:PORT: the console's origin. */
    consoleUrl: string;
    databaseUrl: string;
  }
}
