// Filled in by the ots capability: its request and reply schemas.
export {};
