/**
 * How the portal and the staff console keep server data: the query defaults of their TanStack
 * Query clients, one policy for both apps (decision 059). `statusOf` gives the HTTP status of a
 * failure the app's fetch client recognised as an answer, nothing (or 0) for a call that got none.
 * Plain values, no import: the contract depends on no app library, and the browser gets no zod.
 */
export function queryDefaults(statusOf: (error: unknown) => number | undefined) {
  return {
    // An answer comes again if asked again — a refusal (4xx) as much as the server's own failure
    // (5xx), which the page shows with its "try again". Only a call that got no answer at all is
    // worth one more try.
    retry: (failureCount: number, error: unknown) => failureCount < 1 && !statusOf(error),
    // Every call is made, and a failure shows as the apps' other calls show theirs, rather than
    // waiting unseen for the browser's online event.
    networkMode: 'always',
    // Server data changes by the person's own actions, not behind a switch of tabs.
    refetchOnWindowFocus: false,
  } as const;
}
