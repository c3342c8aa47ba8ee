// Filled in by the activity capability: its request and reply schemas.
export {};
