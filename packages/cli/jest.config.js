// The CLI's tests spawn real `svc` processes (each opening an embedded database on disk), which
// takes seconds on a loaded 2-core machine: allow them more than the shared default.
// Two workers: its suites are the longest chain of either pass and mostly wait on the processes
// they spawn; with Jest's default on 2 cores (one worker) they ran one after another at the end
// of each pass, alone, with a core idle (CI's vmstat: about a third idle for those minutes).
module.exports = require('../../jest.preset.js')(__dirname, { testTimeout: 120000, maxWorkers: 2 });
