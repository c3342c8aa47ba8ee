// What harness/global-setup.ts hands to the browser tests through inject().
import 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    /** http://127.0.0.1:PORT of the portal server under test. */
    baseUrl: string;
    /** Its DATABASE_URL (file:…), for the operator CLI. */
    databaseUrl: string;
  }
}
