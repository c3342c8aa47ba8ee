// What test/postgres-global-setup.ts hands to the test files through inject().
import 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    /** DIALECTS parsed (default sqlite,postgres): the engines the API tests run against. */
    dialects: Array<'sqlite' | 'postgres'>;
    /** Admin URL of the PostgreSQL server for this run; '' when DIALECTS leaves postgres out. */
    testDatabaseUrl: string;
    /** A migrated, empty SQLite file that each test database copies; '' without sqlite. */
    sqliteTemplate: string;
    /** The migrated, empty PostgreSQL database each test database is made from; '' without postgres. */
    postgresTemplate: string;
  }
}
