export { MFA_CHALLENGE_MAX_ATTEMPTS, MFA_CHALLENGE_TTL_SECONDS, challengeFor } from './challenge';
export {
  RECOVERY_CODE_ALPHABET,
  RECOVERY_CODES_PER_BATCH,
  generateRecoveryCodes,
  hashRecoveryCode,
  normaliseRecoveryCode,
} from './recovery-codes';
export { createSecretBox, secretBoxFor, type SecretBox } from './secret-box';
export {
  TOTP_DIGITS,
  TOTP_PERIOD_SECONDS,
  TOTP_WINDOW,
  base32Decode,
  base32Encode,
  hotp,
  matchTotp,
  otpauthUri,
  timeStep,
  totp,
} from './totp';
