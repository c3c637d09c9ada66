/** The token that ties a reply on a chat platform back to its task. */
export function taskToken(taskId: number): string {
  return `[[svc:task=${taskId}]]`;
}

/** `body` with the task's token appended when it lacks it; never twice. */
export function withTaskToken(body: string, taskId: number): string {
  const token = taskToken(taskId);
  if (body.includes(token)) return body;
  return `${body.trimEnd()}\n\n${token}`;
}
