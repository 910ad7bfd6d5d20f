// The app's pure modules (app/*.test.ts: the line diff, exact JSON numbers) are tested beside them.
module.exports = require('../../jest.preset.js')(__dirname, {
  roots: ['<rootDir>/src', '<rootDir>/app'],
});
