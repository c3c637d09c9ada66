/** One filter of a list page: a labelled select whose first choice, "all", clears the filter. */
export function FilterSelect(props: {
  label: string;
  value: string;
  onChange(value: string): void;
  /** Each choice's value and the words shown for it (the value itself when left out). */
  options: ReadonlyArray<{ value: string | number; text?: string }> | undefined;
}) {
  return (
    <label>
      {props.label}
      <select value={props.value} onChange={(e) => props.onChange(e.target.value)}>
        <option value="">all</option>
        {props.options?.map((option) => (
          <option key={option.value} value={option.value}>
            {option.text ?? option.value}
          </option>
        ))}
      </select>
    </label>
  );
}
