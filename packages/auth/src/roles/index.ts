import { commonError } from '@svc/core';
import { refuseUnstorableText } from '../account/text';

const ROLE_NAME_RE = /^[A-Za-z0-9_:-]{1,64}$/;

/** The role every `createSuperuser` user holds. */
export const SUPERUSER_ROLE = 'superuser';

export function checkRoleName(name: unknown): string {
  if (typeof name !== 'string' || !ROLE_NAME_RE.test(name)) {
    throw commonError('VALIDATION_ERROR', 'role name must be 1 to 64 letters, digits, _, - or :');
  }
  return name;
}

export function checkRoleDescription(description: unknown): string | null {
  if (description === undefined || description === null) return null;
  if (typeof description !== 'string' || description.length > 1000) {
    throw commonError(
      'VALIDATION_ERROR',
      'role description must be a string of at most 1000 characters',
    );
  }
  refuseUnstorableText(description, 'role description');
  return description;
}
