// Filled in by the content capability: its request and reply schemas.
export {};
