// One measure of a stream event's size, used by both sides of the thread line (so the credit the
// host returns is exactly what the worker spent): about the length of its JSON text. A text or
// reasoning event counts its text plus 24; any other event the length of its JSON text.
export function eventSize(event: unknown): number {
  const record = event as { type?: unknown; text?: unknown };
  if ((record?.type === 'text' || record?.type === 'reasoning') && typeof record.text === 'string' && ownKeyCount(record) === 2) {
    return record.text.length + 24;
  }
  try {
    return JSON.stringify(event)?.length ?? 0;
  } catch {
    // A cycle or a BigInt cannot be written as JSON: the caller refuses it.
    return Number.POSITIVE_INFINITY;
  }
}

function ownKeyCount(record: object): number {
  let count = 0;
  for (const key in record) if (Object.hasOwn(record, key)) count++;
  return count;
}
