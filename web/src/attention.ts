// The one place the web reads a task's attention (what it asks of the person now) and the board's
// groups: the value comes from the service, derived once there for every face.
import type { Attention, BoardCard } from './api-types.js';

/** The board's groups in the order a person reads them: what needs them first. */
export const GROUPS: ReadonlyArray<{ attention: Attention; title: string }> = [
  { attention: 'needs_you', title: 'Needs you' },
  { attention: 'ready_for_review', title: 'Ready for review' },
  { attention: 'conflicts', title: 'Conflicts' },
  { attention: 'working', title: 'Working' },
  { attention: 'idle', title: 'Idle' },
  { attention: 'done', title: 'Done today' },
];

export function attentionOf(card: Pick<BoardCard, 'attention'>): Attention {
  return card.attention;
}

/** "42s", "5m", "3h", "2d": how long ago. */
export function elapsed(since: string, now = Date.now()): string {
  const seconds = Math.max(0, Math.round((now - Date.parse(since)) / 1000));
  if (seconds < 60) return `${seconds}s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)}h`;
  return `${Math.floor(seconds / 86_400)}d`;
}
