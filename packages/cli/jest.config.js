// The CLI's tests spawn real `svc` processes (each opening an embedded database on disk), which
// takes seconds on a loaded 2-core machine: allow them more than the shared default.
module.exports = require('../../jest.preset.js')(__dirname, { testTimeout: 120000 });
