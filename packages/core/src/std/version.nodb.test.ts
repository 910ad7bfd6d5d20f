/** std/version: semver strings read as Gel's version tuple (edb/common/verutils.parse_version). */
import { parseVersion, SERVER_VERSION, SVC_VERSION, versionString } from './version';

test.each([
  ['0.1.0', { major: 0, minor: 1, stage: 'final', stageNo: 0, local: [] }, '0.1'],
  ['0.3.0-rc.1', { major: 0, minor: 3, stage: 'rc', stageNo: 1, local: [] }, '0.3-rc.1'],
  ['1.0.0-alpha.2', { major: 1, minor: 0, stage: 'alpha', stageNo: 2, local: [] }, '1.0-alpha.2'],
  ['2.4.1-beta', { major: 2, minor: 4, stage: 'beta', stageNo: 0, local: [] }, '2.4-beta.0'],
  [
    '1.2.3-dev.7+g1a2b.x',
    { major: 1, minor: 2, stage: 'dev', stageNo: 7, local: ['g1a2b', 'x'] },
    '1.2-dev.7+g1a2b.x',
  ],
  [
    '1.2.0+local',
    { major: 1, minor: 2, stage: 'final', stageNo: 0, local: ['local'] },
    '1.2+local',
  ],
])('%s', (text, tuple, str) => {
  const v = parseVersion(text);
  expect(v).toEqual(tuple);
  expect(versionString(v)).toBe(str);
});

test.each(['1', 'v1.0.0', '1.0.0-next.1', '1.0.0-rc.x'])('%s has no version tuple', (text) => {
  expect(() => parseVersion(text)).toThrow();
});

test("the server's version is @svc/core's package.json", () => {
  expect(SERVER_VERSION).toEqual(parseVersion(SVC_VERSION));
  expect(SVC_VERSION).toBe((require('../../package.json') as { version: string }).version);
});
