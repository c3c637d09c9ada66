// The MCP client matrix (docs/mcp-clients.md) is made from test results: a test that proves (or
// disproves) what a real client does with svc's MCP server records one cell here. With
// SVC_MCP_CLIENT_MATRIX set to a file, cells are appended to it as JSON lines; the generator
// (scripts/generate-mcp-clients-doc.mjs) turns that file into the page.
import { appendFileSync } from 'node:fs';

export type MatrixFeature = 'stdio' | 'http' | 'structuredContent' | 'annotations' | 'progress' | 'cancellation' | 'listChanged' | 'elicitation' | 'resourceLinks';

export interface MatrixCell {
  client: string;
  version: string;
  feature: MatrixFeature;
  honoured: boolean;
  /** What the test saw, one line. */
  evidence: string;
  /** The test that decided it. */
  test: string;
}

export function recordMatrixCell(cell: MatrixCell): void {
  const file = process.env.SVC_MCP_CLIENT_MATRIX;
  if (file) appendFileSync(file, `${JSON.stringify({ ...cell, at: new Date().toISOString() })}\n`);
}
