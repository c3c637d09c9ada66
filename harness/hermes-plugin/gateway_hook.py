"""The ``pre_gateway_dispatch`` hook: routes a message meant for svc and answers it in place."""

import asyncio
import logging
import re

from .inbound_identity import inbound_identity
from .mcp_stdio_client import McpStdioClient
from .task_reply import answer_task_reply

logger = logging.getLogger(__name__)

TOKEN = re.compile(r"\[\[svc:task=\d+\]\]")
WORK = re.compile(r"^(work|start|create)\b\s*", re.IGNORECASE)
PROJECT = re.compile(r"^@([\w.-]+)\s+")


class SvcGatewayHook:
    def __init__(self, settings=None):
        settings = settings or {}
        self.prefix = settings.get("prefix", "/svc")
        self._client = McpStdioClient(settings.get("command", "svc"), list(settings.get("args", ["mcp"])), dict(settings.get("env", {})))

    async def pre_gateway_dispatch(self, event, gateway=None, session_store=None, **kwargs):
        """Hermes awaits this on its event loop; the blocking svc call runs on a worker thread."""
        if getattr(event, "internal", False):
            return None
        reply = await asyncio.to_thread(self.answer, event)
        if reply is None:
            # Not for svc: None, not {"action": "allow"}. Hermes stops reading the other plugins'
            # answers at the first "allow", so returning it would override their skip or rewrite.
            return None
        if reply:
            await self._send(gateway, event, reply)
        return {"action": "skip", "reason": "handled by svc"}

    def answer(self, event):
        """None: not for svc. "": handled, nothing to say (a repeated delivery). Else the reply text."""
        identity = inbound_identity(event)
        content = str(getattr(event, "text", "") or "").strip()
        quoted = str(getattr(event, "reply_to_text", "") or "")
        about_task = bool(TOKEN.search(quoted) or TOKEN.search(content))
        replying = identity is not None and "replyToMessageId" in identity
        if identity is None or (not content.startswith(self.prefix) and not about_task and not replying):
            return None
        text = content[len(self.prefix):].strip() if content.startswith(self.prefix) else content
        if about_task and not TOKEN.search(text):
            text = f"{text} {(TOKEN.search(quoted) or TOKEN.search(content)).group(0)}".strip()
        if text and (about_task or replying):
            # A reply about a task is resolved first; what it does not answer keeps the ordinary routing.
            try:
                answer = answer_task_reply(self._client, identity, text)
            except Exception as error:
                logger.warning("svc gateway: svc mcp failed: %s", error)
                return "svc: the service could not be reached; try again later."
            if answer is not None:
                return answer
            if not content.startswith(self.prefix) and not about_task:
                return None
        # `/svc @<project> ...` names the project explicitly: it beats (and moves) the chat's binding.
        named = PROJECT.match(text)
        if named:
            text = text[named.end():]
        work = WORK.match(text) is not None
        if work:
            text = WORK.sub("", text, count=1)
        if not text:
            return f"Usage: {self.prefix} <question>, or {self.prefix} work <what to build>"
        try:
            routed = self._client.call(
                "route_gateway_message",
                {**identity, "text": text, "kind": "work" if work else "discussion", **({"project": named.group(1)} if named else {})},
            )
            if "error" not in routed:
                return answer_for(routed)
            if routed["error"].get("code") != "owner_required":
                return f"svc: {routed['error'].get('message', 'refused')}"
            # Not the owner: a trusted group may still ask, read-only.
            query_identity = {key: value for key, value in identity.items() if key != "replyToMessageId"}
            query = self._client.call("route_gateway_query", {**query_identity, "text": text})
            return None if "error" in query else query.get("context", "")
        except Exception as error:  # svc missing or crashed: say so rather than hand /svc to the agent
            logger.warning("svc gateway: svc mcp failed: %s", error)
            return "svc: the service could not be reached; try again later."

    def close(self):
        self._client.close()

    async def _send(self, gateway, event, text):
        source = event.source
        adapters = getattr(gateway, "adapters", None) or {}
        adapter = adapters.get(source.platform)
        if adapter is None:
            logger.warning("svc gateway: no adapter for %s; the answer was not sent", getattr(source.platform, "value", source.platform))
            return
        metadata = {"thread_id": str(source.thread_id)} if getattr(source, "thread_id", None) else None
        result = await adapter.send(str(source.chat_id), text, reply_to=getattr(event, "message_id", None), metadata=metadata)
        if result is not None and getattr(result, "success", True) is False:
            logger.warning("svc gateway: the answer was not delivered: %s", getattr(result, "error", None))


def answer_for(routed):
    # A repeated delivery of the same platform message: the first one answered; say nothing twice.
    if routed.get("noOp"):
        return ""
    if routed.get("status") == "needs_project":
        names = ", ".join(candidate.get("name", "") for candidate in routed.get("candidates", []))
        return f"Which project? {names}" if names else "Which project is this about?"
    what = "work request" if routed.get("event") == "GATEWAY_WORK_REQUEST" else "question"
    return f"svc: your {what} went to the project's Workbench (request {routed.get('inboundId')}); the answer follows here."
