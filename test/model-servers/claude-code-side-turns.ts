// Background requests Claude Code makes beside the conversation, answered without using a script turn
// (pass as `sideTurns` to startAnthropicMessagesServer). Seen with 2.1.197: a session title request that
// races the first conversation request and would otherwise take its turn.
import type { SideTurn } from './anthropic-messages-server.ts';

export const claudeCodeSideTurns: SideTurn[] = [
  {
    systemPrompt: /Generate a concise, sentence-case title/,
    turn: { type: 'text', text: '{"title": "Scripted session"}' },
  },
];
