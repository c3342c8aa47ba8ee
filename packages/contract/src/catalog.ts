// Filled in by the catalog capability: its request and reply schemas.
export {};
