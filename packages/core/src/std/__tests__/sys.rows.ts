/**
 * std/__tests__/sys.rows: svc's version (sys::get_version, sys::get_version_as_str). Both take no
 * argument and give a constant (std/version), so no input fails; the expected values are computed
 * from @svc/core's package.json as the forms are, never spelled out here.
 * sys::VersionStage is an enum every schema has: a label outside it is an InvalidValueError.
 */
import { SERVER_VERSION, versionString } from '../version';
import { cast, f, fails, ok, type Row } from './harness';

const CONSTANT = 'takes no argument: a constant computed at start-up';

export const SYS_ROWS: readonly Row[] = [
  ok(
    f('sys::get_version'),
    [
      {
        major: SERVER_VERSION.major,
        minor: SERVER_VERSION.minor,
        stage: SERVER_VERSION.stage,
        stage_no: SERVER_VERSION.stageNo,
        local: SERVER_VERSION.local,
      },
    ],
    { never: CONSTANT },
  ),
  ok(f('sys::get_version_as_str'), [versionString(SERVER_VERSION)], { never: CONSTANT }),
  ok(cast('sys::VersionStage', `'rc'`), ['rc']),
  fails(cast('sys::VersionStage', `'gamma'`), 'InvalidValueError'),
];
