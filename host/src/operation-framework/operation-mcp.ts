/**
 * How an operation is an MCP tool. Its group's surface (core, terminal, messaging, …) places it in the
 * profiles that take that surface (host/src/adapters/mcp/capability-definition.ts); these name the
 * profiles where it departs from that. Profile names are checked when the MCP view is built.
 */
export interface OperationMcp {
  /** Profiles that offer it though they do not take its surface. */
  alsoIn?: readonly string[];
  /** Profiles that never offer it though they take its surface. */
  notIn?: readonly string[];
  /** Profiles that offer it only for a named chat sender (platform, chatId, senderId), whom the handler checks. */
  senderOnlyIn?: readonly string[];
  /**
   * A read a gateway's own agent may call when it carries out an external operation for a chat reply
   * (the `allowedTools` of the `svcContext` svc hands it). Only a read-only operation may say so.
   */
  delegatedRead?: boolean;
}

/** What a handler reads of another operation's declaration (an OperationRegistry is such a list). */
export interface ServedOperations {
  list(): readonly { name: string; mcp?: OperationMcp | false }[];
}
