// Free text → an FTS5 MATCH expression. Each word is quoted (so `-`, `:`, `*` and keywords in a
// question are never FTS syntax) and words are OR-ed; bm25 ranks rows matching more of them first.

const STOPWORDS = new Set(
  'a an and are as at be by can do does for from has have how i in is it of on or our should the this to was we what when where which who why will with you your'.split(' '),
);

/** Undefined when the text has no searchable word. */
export function ftsQuery(text: string, maxTerms = 16): string | undefined {
  const words = (text.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? []).filter((word) => word.length > 1 && !STOPWORDS.has(word));
  const unique = [...new Set(words)].slice(0, maxTerms);
  if (unique.length === 0) return undefined;
  return unique.map((word) => `"${word}"`).join(' OR ');
}
