export * from './errors';
export * from './db';
export * as ql from './syntax';
export * from './schema';
