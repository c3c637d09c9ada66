import type { WorkbenchEvent } from './workbench-event.js';

/**
 * The one message a parent reads for a batch: failures first, then everything else in arrival
 * order, each with what to do next. The event payloads are quoted, never rewritten.
 */
export function renderReviewBatch(events: WorkbenchEvent[], batchId: number): string {
  const ordered = [...events.filter((e) => e.priority === 'high'), ...events.filter((e) => e.priority !== 'high')];
  const lines = [`[svc review batch ${batchId}: ${events.length} event(s)] Call ack_workbench_batch({"batchId":${batchId}}) now; resolve_workbench_batch when handled.`];
  for (const event of ordered) {
    const payload = event.payload as Record<string, unknown> | null;
    const text = typeof payload?.text === 'string' ? payload.text : typeof payload?.summary === 'string' ? payload.summary : '';
    const who = event.sourceTaskId !== null ? ` task ${event.sourceTaskId}` : '';
    const inbound = event.inboundId !== null ? ` inbound ${event.inboundId}` : '';
    lines.push(`- ${event.priority === 'high' ? '(HIGH) ' : ''}${event.kind}${who}${inbound}${event.executionId !== null ? ` execution ${event.executionId}` : ''}${text ? `: ${text.replace(/\s+/g, ' ').slice(0, 500)}` : ''}`);
  }
  return lines.join('\n');
}
