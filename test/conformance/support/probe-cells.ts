// Turns what the probe MCP server (mcp-probe-server.ts) and the scripted model server saw into client
// matrix cells: each cell says what the real client did, "no" included.
import { recordMatrixCell, type MatrixCell } from './client-matrix.js';
import { LINK_URI, STRUCTURED_MARKER, initializeOf, type ProbeServer } from './mcp-probe-server.js';

interface Who {
  client: string;
  version: string;
  test: string;
}

type Cell = Omit<MatrixCell, 'client' | 'version' | 'test'>;

/**
 * The cells of a run in which the model called probe_structured, probe_link, probe_elicit, probe_read,
 * probe_delete and then probe_change. `modelSaw` is every model request after the first, as JSON;
 * `toolsOffered` the tool definitions the client gave the model, as JSON.
 */
export function featureCells(probe: ProbeServer, modelSaw: string, toolsOffered: string): Cell[] {
  const init = initializeOf(probe);
  const capabilities = JSON.stringify(init?.params?.capabilities ?? {});
  const cells: Cell[] = [];

  const structuredCalled = probe.calls('probe_structured').length > 0;
  const structured = modelSaw.includes(STRUCTURED_MARKER);
  cells.push({
    feature: 'structuredContent',
    honoured: structured,
    evidence: !structuredCalled
      ? 'the client did not call the probe tool'
      : structured
        ? 'a value only in structuredContent reached the model'
        : 'only the text content reached the model; a value only in structuredContent did not',
  });

  const linkCalled = probe.calls('probe_link').length > 0;
  const linkRead = probe.messages.some((message) => message.method === 'resources/read' && message.params?.uri === LINK_URI);
  const link = modelSaw.includes(LINK_URI);
  cells.push({
    feature: 'resourceLinks',
    honoured: link || linkRead,
    evidence: !linkCalled
      ? 'the client did not call the probe tool'
      : `${link ? 'the resource_link (its uri) reached the model' : 'the resource_link did not reach the model (only the text content did)'}; ${linkRead ? 'the client read the linked resource' : 'the client did not read it'}`,
  });

  const readRan = probe.calls('probe_read').length > 0;
  const deleteRan = probe.calls('probe_delete').length > 0;
  // Shown: the hints themselves (not the tools' titles or descriptions) in what the model was offered.
  const hintsShown = /readOnlyHint|destructiveHint/.test(toolsOffered);
  const offered = ['probe_read', 'probe_delete'].filter((tool) => toolsOffered.includes(tool));
  const acted = readRan && !deleteRan;
  cells.push({
    feature: 'annotations',
    honoured: acted || hintsShown,
    evidence: `without the tools allowed, the readOnlyHint tool ${readRan ? 'ran' : 'did not run'} and the destructiveHint tool ${deleteRan ? 'ran' : 'did not run'}${
      acted ? ' (the hints decided)' : ' (both treated alike)'
    }; ${offered.length === 2 ? 'both were offered to the model' : offered.length === 0 ? 'neither was offered to the model' : `only ${offered[0]} was offered to the model`}, the hints ${hintsShown ? 'with them' : 'not'}`,
  });

  const elicitation = probe.elicitations[0];
  cells.push({
    feature: 'elicitation',
    honoured: elicitation?.answer !== undefined,
    evidence: !elicitation
      ? `the client did not call the probe tool; it declared capabilities ${capabilities}`
      : !elicitation.declared
        ? `no elicitation capability declared (initialize capabilities ${capabilities}), so no request was sent`
        : elicitation.answer !== undefined
          ? `declared elicitation and answered a form request with "${elicitation.answer}"`
          : `declared elicitation but the request failed: ${elicitation.error}`,
  });

  const change = probe.calls('probe_change')[0];
  const relisted = change !== undefined && probe.messages.some((message) => message.method === 'tools/list' && message.at >= change.at);
  const addedOffered = modelSaw.includes('probe_added');
  cells.push({
    feature: 'listChanged',
    honoured: relisted,
    evidence: !change
      ? 'the client did not call the probe tool'
      : `after notifications/tools/list_changed the client ${relisted ? 'listed the tools again' : 'did not list the tools again'}; the added tool ${addedOffered ? 'was' : 'was not'} offered to the model afterwards`,
  });
  return cells;
}

/** The cells of a run cancelled while probe_slow ran (its tools/call request `call`). */
export function slowCells(probe: ProbeServer, call: { id: unknown; params?: Record<string, any> }): Cell[] {
  const token = call.params?._meta?.progressToken;
  const cancelled = probe.messages.some((message) => message.method === 'notifications/cancelled' && message.params?.requestId === call.id);
  return [
    {
      feature: 'progress',
      honoured: token !== undefined,
      evidence: token !== undefined ? 'tools/call carried a progressToken, so the server sent notifications/progress' : 'tools/call carried no progressToken, so no progress was sent',
    },
    {
      feature: 'cancellation',
      honoured: cancelled,
      evidence: cancelled
        ? 'interrupted (Ctrl-C to svc query) during a call, the client sent notifications/cancelled for it'
        : 'interrupted (Ctrl-C to svc query) during a call, the client sent no notifications/cancelled (the call was left to the server)',
    },
  ];
}

export function recordCells(who: Who, cells: Cell[]): void {
  for (const cell of cells) recordMatrixCell({ ...who, ...cell });
}
