import { closeSync, existsSync, fstatSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import type { Redactor } from '@svc-org/host/platform/logging';

/** How much of the end of svc.log is read, and how much of each line is kept. */
const TAIL_BYTES = 512 * 1024;
const MAX_LINE_CHARS = 400;

export interface LogLineFilter {
  /** A record matches when one of its fields has one of these values (e.g. gatewayId 3). */
  fields: Record<string, unknown>;
  limit: number;
}

/**
 * The last log lines of `$SVC_HOME/logs/svc.log` whose fields name a subject (a gateway, an inbound
 * request), newest last: each redacted again and cut short, so health output never carries a secret
 * or a page of text. Reads only the end of the file.
 */
export function readLogLines(svcHome: string, redactor: Redactor, filters: LogLineFilter[]): string[][] {
  const records = tailRecords(join(svcHome, 'logs', 'svc.log'));
  return filters.map((filter) => {
    const matching = records.filter((record) => Object.entries(filter.fields).some(([key, value]) => record[key] === value));
    return matching.slice(-filter.limit).map((record) => {
      const line = JSON.stringify(redactor.value(record));
      return line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS - 1)}…` : line;
    });
  });
}

function tailRecords(file: string): Record<string, unknown>[] {
  if (!existsSync(file)) return [];
  const fd = openSync(file, 'r');
  let text: string;
  try {
    const size = fstatSync(fd).size;
    const start = Math.max(0, size - TAIL_BYTES);
    const buffer = Buffer.alloc(size - start);
    readSync(fd, buffer, 0, buffer.length, start);
    text = buffer.toString('utf8');
    // A cut first line is not a record.
    if (start > 0) text = text.slice(text.indexOf('\n') + 1);
  } finally {
    closeSync(fd);
  }
  const records: Record<string, unknown>[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      const parsed = JSON.parse(line) as unknown;
      if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) records.push(parsed as Record<string, unknown>);
    } catch {
      // a line being written
    }
  }
  return records;
}
