export { BOARD_ATTENTIONS, BOARD_GROUP_WORDS, type BoardAttention } from './board-attention.js';
export { BoardCardSchema, getBoard, lastLineOf, splitQuestion, type BoardCard } from './get-board.js';
