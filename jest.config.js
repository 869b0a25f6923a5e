// `npm test`: unit specs beside the code, API specs per service, then the distributed e2e suite.
const preset = require('./jest.preset');

module.exports = {
  ...preset,
  testMatch: ['<rootDir>/{apps,libs,tools,deploy}/**/*.{spec,api-spec,e2e-spec}.ts'],
  testTimeout: 60_000,
  maxWorkers: 2,
};
