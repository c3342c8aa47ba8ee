// Filled by issue 9 (admin): request and reply schemas.
export {};
