#!/usr/bin/env node
// Writes docs/reference/openapi.json from the gateway's declared routes (run after a build).
// The docs service renders it as the API reference; a test fails when it is out of date.
import { writeFileSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const {
  buildOpenApiDocument,
  resolveDeclaredRoutes,
} = require('../dist/apps/gateway/src/index.js');
mkdirSync(new URL('../docs/reference/', import.meta.url), { recursive: true });
const document = buildOpenApiDocument(resolveDeclaredRoutes(), '1.0.0');
writeFileSync(
  new URL('../docs/reference/openapi.json', import.meta.url),
  `${JSON.stringify(document, null, 2)}\n`,
);
console.log(`docs/reference/openapi.json: ${Object.keys(document.paths).length} paths`);
