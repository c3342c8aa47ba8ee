// Filled by issue 9 (launch-as): request and reply schemas.
export {};
