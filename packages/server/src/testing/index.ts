/**
 * Test support for this package's suites (excluded from the build, not exported): in-process
 * requests and a middleware mounted as the server mounts it.
 */
export { request, type InProcessInit, type RequestListener } from './request';
export { appWith } from './app';
