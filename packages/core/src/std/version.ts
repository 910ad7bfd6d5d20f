/**
 * std/version: svc's own version as Gel's `sys::get_version()` and `sys::get_version_as_str()`
 * report it.
 *
 * Input: @svc/core's package.json `version` (read once at load, as the server reads its own for
 * `GET /`), a semver string: `0.3.0`, `0.3.0-rc.1`, `1.0.0-alpha.2+build.5`.
 * Output: `SVC_VERSION` (that string) and `SERVER_VERSION`, Gel's tuple
 * `(major, minor, stage, stage_no, local)`: the prerelease gives the stage (`dev`, `alpha`/`a`,
 * `beta`/`b`, `rc`/`c`) and its number (0 when none), no prerelease is `final` 0; build metadata
 * (`+a.b`) is `local` (`['a', 'b']`), as Gel's edb/common/verutils.parse_version reads a version.
 * Invariant: a version Gel's stages cannot express (`1.0.0-next.1`) throws at load, as in Gel.
 */
import { STD_ENUMS } from '../model/schema';

/** `sys::VersionStage`'s values, in order (model/schema STD_ENUMS). */
export type VersionStage = 'dev' | 'alpha' | 'beta' | 'rc' | 'final';

export interface ServerVersion {
  readonly major: number;
  readonly minor: number;
  readonly stage: VersionStage;
  readonly stageNo: number;
  readonly local: readonly string[];
}

const STAGES: Readonly<Record<string, VersionStage>> = {
  dev: 'dev',
  a: 'alpha',
  alpha: 'alpha',
  b: 'beta',
  beta: 'beta',
  c: 'rc',
  rc: 'rc',
};

const SEMVER =
  /^(?<major>\d+)\.(?<minor>\d+)(?:\.\d+)*(?:-(?<pre>[0-9A-Za-z.-]+))?(?:\+(?<local>[0-9A-Za-z.-]+))?$/;
const PRERELEASE = /^(?<stage>[a-z]+)\.?(?<no>\d+)?$/;

/** Gel's version tuple of a semver string; throws when it has none. */
export function parseVersion(text: string): ServerVersion {
  const m = SEMVER.exec(text.trim());
  if (!m?.groups) throw new Error(`cannot parse version: ${text}`);
  const { major, minor, pre, local } = m.groups;
  let stage: VersionStage = 'final';
  let stageNo = 0;
  if (pre !== undefined) {
    const p = PRERELEASE.exec(pre);
    const named = p?.groups ? STAGES[p.groups.stage as string] : undefined;
    if (!p?.groups || !named) throw new Error(`cannot determine release stage from ${text}`);
    stage = named;
    stageNo = p.groups.no === undefined ? 0 : Number(p.groups.no);
  }
  if (!STD_ENUMS['sys::VersionStage']?.includes(stage)) throw new Error(`bad stage ${stage}`);
  return {
    major: Number(major),
    minor: Number(minor),
    stage,
    stageNo,
    local: local === undefined ? [] : local.split('.'),
  };
}

/** Gel's `sys::get_version_as_str()` of a version: `major.minor[-stage.no][+local]`. */
export function versionString(v: ServerVersion): string {
  let out = `${v.major}.${v.minor}`;
  if (v.stage !== 'final') out += `-${v.stage}.${v.stageNo}`;
  if (v.local.length > 0) out += `+${v.local.join('.')}`;
  return out;
}

/** The stored form of the version tuple (tuples are jsonb arrays in element order). */
export function versionTupleJson(v: ServerVersion): string {
  return JSON.stringify([v.major, v.minor, v.stage, v.stageNo, v.local]);
}

/** The version of @svc/core (its package.json). */
export const SVC_VERSION: string = (require('../../package.json') as { version: string }).version;

/** `SVC_VERSION` as Gel's version tuple, computed once at start-up. */
export const SERVER_VERSION: ServerVersion = parseVersion(SVC_VERSION);
