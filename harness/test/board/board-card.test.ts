// What a board card shows of a question and a terminal: the options ask_human wrote under its
// question become buttons, and the last line a person saw on the terminal is the card's last line.
import { expect, test } from 'vitest';
import { lastLineOf, splitQuestion } from '../../src/board/index.js';

test("a question's numbered last lines are its options; a question without them has none", () => {
  expect(splitQuestion('Which line should it end with?\n\n1. done\n2. later')).toEqual({ question: 'Which line should it end with?', options: ['done', 'later'] });
  expect(splitQuestion('Ship it today?')).toEqual({ question: 'Ship it today?', options: [] });
  // A numbered list inside the question, not at its end, stays in the question.
  expect(splitQuestion('Steps:\n1. build\n2. test\nWhich first?')).toEqual({ question: 'Steps:\n1. build\n2. test\nWhich first?', options: [] });
});

test("a terminal's last line is the last text a person saw: colours, cursor moves and overwritten lines gone", () => {
  expect(lastLineOf('starting\r\n\u001b[32mwrote app.js\u001b[0m\r\n\r\n')).toBe('wrote app.js');
  expect(lastLineOf('progress 10%\rprogress 90%\r\n')).toBe('progress 90%');
  expect(lastLineOf('\u001b]0;title\u0007answer> \u001b[?2004h')).toBe('answer>');
  expect(lastLineOf('\r\n  \r\n')).toBeNull();
});
