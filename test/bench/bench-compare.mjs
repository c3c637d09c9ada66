// Compares one `pnpm bench` run with the committed baseline (test/bench/baseline.json): each figure's
// ratio beside its baseline ratio and its goal. Pure functions, so the rules are unit-tested; the
// runner is scripts/bench-check.mjs.

/** A figure's key: its name with every number replaced, so "median of 20" and "5.0 MB" stay one key. */
export function figureKey(name) {
  return name.replace(/\d[\d.,]*/g, '#').replace(/\s+/g, ' ').trim();
}

/**
 * Whether a higher ratio is better. A result may say so itself; otherwise its goal (`≥ …`), its notes
 * ("higher is better") or a rate unit (`…/s`, `per s`) tell.
 */
export function higherIsBetter(result) {
  if (typeof result.higherIsBetter === 'boolean') return result.higherIsBetter;
  const goal = result.goal ?? '';
  if (/^\s*≥/.test(goal) || /higher is better/.test(goal) || /higher is better/.test(result.notes ?? '')) return true;
  if (/^\s*≤/.test(goal)) return false;
  return /\/s\b|per s\b/.test(result.unit ?? '');
}

/** The goal's bound on the ratio, or undefined when the goal names none (`1.00× (no lost call)`). */
export function goalBound(goal) {
  if (!goal) return undefined;
  const onRatio = /ratio\s*(≤|≥)\s*([\d.]+)/.exec(goal);
  const match = onRatio ?? /^\s*(≤|≥)\s*([\d.]+)×/.exec(goal);
  if (!match) return undefined;
  return { op: match[1], value: Number(match[2]) };
}

/** How many times worse than its baseline a ratio is (1 = the same, 2 = twice as bad; < 1 better). */
export function worseBy(ratio, baselineRatio, higher) {
  if (!(ratio > 0) || !(baselineRatio > 0)) return 1;
  return higher ? baselineRatio / ratio : ratio / baselineRatio;
}

/**
 * One row per figure of the run: its ratio, baseline ratio, goal and verdicts. `warn` is for a person
 * (20 % worse); `regressed` (50 % worse) is what may fail a build, once confirmed by a second run.
 */
export function compareRun(results, baseline, { warnAt = 1.2, failAt = 1.5 } = {}) {
  const figures = baseline?.figures ?? {};
  return results.map((result) => {
    const key = figureKey(result.name);
    const higher = higherIsBetter(result);
    const base = figures[key];
    const bound = goalBound(result.goal);
    const goalMet = bound === undefined ? undefined : bound.op === '≤' ? result.ratio <= bound.value : result.ratio >= bound.value;
    const factor = base ? worseBy(result.ratio, base.ratio, higher) : undefined;
    return {
      key,
      name: result.name,
      group: result.group,
      ratio: result.ratio,
      baseline: base?.ratio,
      goal: result.goal,
      goalMet,
      higherIsBetter: higher,
      worseBy: factor,
      warn: factor !== undefined && factor > warnAt,
      regressed: factor !== undefined && factor > failAt,
    };
  });
}

/** The rows as lines for a person: ratio, baseline, goal, and what is wrong with it. */
export function formatComparison(rows) {
  return rows
    .map((row) => {
      const base = row.baseline === undefined ? 'no baseline' : `baseline ${row.baseline.toFixed(2)}×`;
      const goal = row.goal ? `goal ${row.goal}` : 'no goal';
      const marks = [];
      if (row.goalMet === false) marks.push('goal not met');
      if (row.regressed) marks.push(`${Math.round((row.worseBy - 1) * 100)} % worse than its baseline: a regression`);
      else if (row.warn) marks.push(`${Math.round((row.worseBy - 1) * 100)} % worse than its baseline`);
      return `${row.ratio.toFixed(2)}×  (${base}; ${goal})${marks.length > 0 ? `  ← ${marks.join('; ')}` : ''}  ${row.name}`;
    })
    .join('\n');
}

/**
 * A baseline file from one run or several: each figure's ratio is the worst any of the runs read,
 * so that a quiet machine meets its baseline on an ordinary run, not only on its best one.
 */
export function baselineFromRun(...runs) {
  const figures = {};
  for (const run of runs) {
    for (const result of run.results) {
      const key = figureKey(result.name);
      const ratio = Number(result.ratio.toFixed(4));
      const kept = figures[key];
      if (!kept || worseBy(ratio, kept.ratio, higherIsBetter(result)) > 1) figures[key] = { ratio, name: result.name };
    }
  }
  return { recorded: { ...runs[0].recorded, runs: runs.length }, figures };
}
