import type { CliQueryResult } from '../events/cli-query-result.js';
import type { CliStreamItem } from '../events/cli-stream-batches.js';
import { collectCliQueryStream } from '../events/collect-cli-query-stream.js';
import { endCliStream } from '../events/end-cli-stream.js';
import type { AdapterContext, CliAdapter } from './cli-adapter.js';
import type { QueryRequest } from './requests.js';

/**
 * For CLIs that print an event stream (`--output-format stream-json` and the like): implement
 * `stream()`, and `generate()` is the stream collected into the canonical result — the reverse of
 * `BaseCliAdapter`. `stream()` may yield an array of events as one item (the events one chunk of
 * output completed): its consumer then awaits once per batch, not once per event. The
 * stream-ending rules (`endCliStream`) apply to what `generate()` collects, so a stream that throws
 * or forgets its `finish` still gives a well-formed result.
 */
export abstract class StreamingCliAdapter implements CliAdapter {
  abstract stream(request: QueryRequest, ctx: AdapterContext): AsyncIterable<CliStreamItem>;

  async generate(request: QueryRequest, ctx: AdapterContext): Promise<CliQueryResult> {
    return collectCliQueryStream(endCliStream(this.stream(request, ctx), ctx.signal));
  }
}
