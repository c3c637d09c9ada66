"""A reply about a task (it carries ``[[svc:task=<id>]]``, or replies to a message svc sent): svc is
asked which task it is about first (``resolve_gateway_task_context``, read-only), then a relayed
permission request it replies to is answered (``answer_approval``, owner only: "allow", "allow for
task", "deny <reason>"), an OPEN question is answered (``reply_to_ask``, owner only), an explicit "continue" goes to
``continue_bound_task`` (owner only), a question is answered from the read-only context and no
terminal is touched. Anything else returns None and keeps the ordinary routing."""

import re

CONTINUE = re.compile(r"^(continue|go on|carry on|proceed|resume)\b", re.IGNORECASE)
QUESTION = re.compile(r"\?\s*$|^(what|why|how|when|where|which|who|did|does|is|are|has|have|can|could|should|will|would)\b", re.IGNORECASE)
TOKENS = re.compile(r"\s*\[\[svc:task=\d+\]\]\s*")


def answer_task_reply(client, identity, text):
    """None: keep the ordinary routing. "": handled, nothing to say. Else the reply text."""
    context = client.call("resolve_gateway_task_context", {**identity, "text": text})
    if "error" in context:
        if context["error"].get("code") in ("task_not_bound", "chat_not_authorized"):
            return None
        return f"svc: {context['error'].get('message', 'refused')}"
    task = context["subjectTaskId"]
    reply = TOKENS.sub(" ", text).strip()
    approval = (context.get("repliedTo") or {}).get("approval")
    if approval:
        sender = {key: value for key, value in identity.items() if key in ("platform", "chatId", "senderId", "platformMessageId")}
        answered = client.call("answer_approval", {"approvalId": approval["approvalId"], "reply": reply, "via": "gateway", **sender})
        if "error" not in answered:
            verdict = "allowed" if answered.get("status") == "ALLOWED" else "denied"
            return f"svc: approval #{approval['approvalId']} {verdict}; task {task} is told."
        if answered["error"].get("code") == "owner_required":
            return f"svc: only the owner can answer task {task}'s approval requests."
        return f"svc: {answered['error'].get('message', 'refused')}"
    if context.get("openAsk"):
        sender = {key: value for key, value in identity.items() if key in ("platform", "chatId", "senderId", "platformMessageId")}
        answered = client.call("reply_to_ask", {"taskId": task, "reply": reply, "via": "gateway", **sender})
        if "error" not in answered:
            return f"svc: your answer reached task {task}; it continues."
        code = answered["error"].get("code")
        if code == "no_pending":
            return late_note(task, None)
        if code == "owner_required":
            return f"svc: only the owner can answer task {task}'s question."
        return f"svc: {answered['error'].get('message', 'refused')}"
    replied_to = context.get("repliedTo") or {}
    if replied_to.get("askStatus") in ("ANSWERED", "SUPERSEDED"):
        return late_note(task, replied_to.get("answeredAt"))
    if CONTINUE.match(reply):
        continued = client.call("continue_bound_task", {**identity, "text": reply, "taskId": task})
        if "error" in continued:
            return f"svc: {continued['error'].get('message', 'refused')}"
        if continued.get("noOp"):
            return ""
        return f"svc: task {task} continues ({continued.get('status')})."
    if QUESTION.search(reply):
        return describe_task(context)
    return None


def late_note(task, answered_at):
    when = f" at {answered_at[:16].replace('T', ' ')} UTC" if answered_at else ""
    return f"svc: task {task}'s question was already answered{when}; this reply was not passed on."


def describe_task(context):
    """The read-only answer to a question about a task: its state and the latest result svc sent for it."""
    lines = [f"Task {context['subjectTaskId']} \"{context['title']}\" is {context['taskStatus']}."]
    if context.get("latestResult"):
        lines.append(f"Latest result: {context['latestResult']}")
    executions = context.get("recentExecutions") or []
    if executions:
        last = executions[-1]
        ended = f", ended {last['endedAt'][:16].replace('T', ' ')} UTC" if last.get("endedAt") else ""
        lines.append(f"Last run: {last['status']}{ended}.")
    return "\n".join(lines)
