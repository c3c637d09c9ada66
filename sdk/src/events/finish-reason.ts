export const FINISH_REASONS = ['stop', 'length', 'max-turns', 'cancelled', 'error', 'other'] as const;
export type FinishReason = (typeof FINISH_REASONS)[number];
