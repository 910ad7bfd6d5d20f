/**
 * @svc/test-support: helpers the packages' test suites share, in one place (private; never
 * published, never imported by shipped code).
 */
export { openApiValidator, type OpenApiAnswer, type OpenApiValidator } from './openapi-validator';
export { countingQueries } from './counting';
export { seedEmbeddedFolder } from './embedded-folder';
export { freePort } from './ports';
export {
  addVirtualAuthenticator,
  CHROMIUM,
  launchChromium,
  type LaunchOptions,
} from './browser';
