/**
 * What a task terminal's CLI runs besides itself: Node, the svc command (for `svc mcp`) and the hook
 * scripts. The host does not know where the hook scripts are: the plugin that ships them (the
 * harness) says, through the host's `terminalFiles` port.
 */
export interface HarnessFiles {
  node: string;
  svcBin: string;
  ladderHook: string;
  turnHook: string;
  approvalHook: string;
}
