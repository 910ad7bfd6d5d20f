// The CLI's tests spawn real `svc` processes (each opening an embedded database on disk), which
// takes seconds on a loaded 2-core machine: allow them more than the shared default. One Jest
// worker (the default on 2 cores): with two, CI's passes took no less time, since every core was
// already busy, and first starts on an embedded folder (initdb) then outlasted their 30 s. A test
// may wait FIRST_START_MS (test/svc.ts) for each of its commands; this bounds the whole test.
module.exports = require('../../jest.preset.js')(__dirname, { testTimeout: 240_000 });
