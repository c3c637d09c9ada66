// Qwen Code prints a JSON error report (`{"error":{"message"}}`) on stderr in json mode; its message
// is the summary. Anything else: the plain end of stderr.
export function summarizeStderr(text: string): string {
  const trimmed = text.trim();
  try {
    const report = JSON.parse(trimmed) as { error?: { message?: unknown } };
    if (typeof report?.error?.message === 'string') return report.error.message;
  } catch {
    // not a JSON report: the plain text is the summary
  }
  return trimmed;
}
