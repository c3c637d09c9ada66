// One measure of a stream event's size, used by both sides of the thread line: the length of its
// JSON text (UTF-16 code units, about its bytes in UTF-8 for ASCII). The credit window and the
// per-event bound count in this unit.
export function eventSize(event: unknown): number {
  try {
    return JSON.stringify(event)?.length ?? 0;
  } catch {
    // A cycle or a BigInt cannot cross as JSON: treat it as too large rather than as free.
    return Number.POSITIVE_INFINITY;
  }
}
