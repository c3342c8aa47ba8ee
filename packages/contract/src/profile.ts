// Filled in by the profile capability: its request and reply schemas.
export {};
