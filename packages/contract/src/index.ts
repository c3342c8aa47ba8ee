export * from './errors.ts';
export * from './locale.ts';
export * from './client.ts';
export * from './user.ts';
export * from './paths.ts';
export * from './headers.ts';
