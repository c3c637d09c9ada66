import { SvcError } from '../errors/svc-error.js';
import { abortReason } from '../host-context/abort-reason.js';
import { isCliStreamBatch, type CliStreamItem } from './cli-stream-batches.js';
import type { CliStreamEvent } from './cli-stream-event.js';

/**
 * Applies the stream-ending rules to a provider's events (one at a time or in batches; what comes
 * out is one event at a time), the same rules the host applies when it
 * relays a `stream()` call:
 * - exactly one `finish`, and it is last: events after it are dropped;
 * - a throw (before the first event or later) becomes `error {code, message}` then `finish error`,
 *   or `finish cancelled` when the call was cancelled;
 * - a stream that ends without `finish` gets one: `cancelled` after a cancel, `error` (with a
 *   `timeout` error event) after the deadline, `other` otherwise.
 */
export async function* endCliStream(events: AsyncIterable<CliStreamItem>, signal: AbortSignal): AsyncGenerator<CliStreamEvent> {
  let sawError = false;
  try {
    for await (const item of events) {
      for (const event of isCliStreamBatch(item) ? item : [item]) {
        yield event;
        if (event.type === 'error') sawError = true;
        if (event.type === 'finish') return;
      }
    }
  } catch (error) {
    const aborted = abortReason(signal);
    if (aborted === 'cancelled') {
      yield { type: 'finish', finishReason: 'cancelled' };
      return;
    }
    const data = SvcError.hasCode(error) ? error : { code: 'plugin_error', message: error instanceof Error ? error.message : String(error) };
    yield { type: 'error', code: aborted === 'timeout' ? 'timeout' : data.code, message: data.message };
    yield { type: 'finish', finishReason: data.code === 'cancelled' ? 'cancelled' : 'error' };
    return;
  }
  const aborted = abortReason(signal);
  if (aborted === 'cancelled') yield { type: 'finish', finishReason: 'cancelled' };
  else if (aborted === 'timeout') {
    if (!sawError) yield { type: 'error', code: 'timeout', message: 'the call did not finish before its deadline' };
    yield { type: 'finish', finishReason: 'error' };
  } else yield { type: 'finish', finishReason: sawError ? 'error' : 'other' };
}
