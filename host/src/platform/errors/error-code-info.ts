/** How every adapter treats one stable error code. */
export interface ErrorCodeInfo {
  /** HTTP status of an answer carrying this code. */
  status: number;
  /** The message may cross a process boundary (HTTP, MCP) as written; otherwise a generic one does. */
  expose: boolean;
  /** Trying the same request again later may succeed. */
  retryable: boolean;
}
