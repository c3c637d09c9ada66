/** Long text cut to three lines; the whole text shows on hover (and to screen readers). */
export function ClampedText({ text }: { text: string | null | undefined }) {
  if (!text) return <span className="muted">—</span>;
  return (
    <div className="clamp" title={text}>
      {text}
    </div>
  );
}
