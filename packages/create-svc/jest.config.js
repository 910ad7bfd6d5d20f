// The tests run the real binary, which starts svc init (loading @svc/cli): allow it time on a
// loaded 2-core machine.
module.exports = require('../../jest.preset.js')(__dirname, { testTimeout: 60000 });
