// Filled by issue 9 (sso): request and reply schemas.
export {};
