export * from './errors';
export * from './db';
