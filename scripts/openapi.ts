/**
 * `npm run openapi`: writes docs/api/openapi.json, the committed copy of the API document that
 * GET /api/openapi.json serves. A server test fails while the copy is stale.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, relative } from 'node:path';
import { API_DOCUMENT_FILE, renderApiDocument } from '../apps/server/src/http/api-document-file.ts';

const text = await renderApiDocument();
mkdirSync(dirname(API_DOCUMENT_FILE), { recursive: true });
writeFileSync(API_DOCUMENT_FILE, text);
console.log(
  `wrote ${relative(process.cwd(), API_DOCUMENT_FILE)} (${Object.keys((JSON.parse(text) as { paths: object }).paths).length} paths)`,
);
