export { isTokenShape, randomToken, secretsEqual, sha256Hex } from './tokens';
