import { defineErrorCodes } from '@svc/core';

/** REST error codes with their statuses (spec "REST statuses"). Retired codes stay commented out. */
export const restError = defineErrorCodes({
  VALIDATION_ERROR: 400,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
});
