"""A stand-in for Hermes Agent's gateway around the svc plugin: it loads the plugin directory the way
Hermes's PluginManager does (a package under ``hermes_plugins``, ``register(ctx)``), builds each
inbound message as Hermes's own dataclasses shape it (``gateway/platforms/base.py`` MessageEvent,
``gateway/session.py`` SessionSource, ``gateway/config.py`` Platform), awaits the registered
``pre_gateway_dispatch`` callbacks with ``event``, ``gateway`` and ``session_store`` keywords, and
records what the plugin sent through the platform adapter.

argv: <plugin dir> <settings JSON>; stdin: a JSON list of messages; stdout: a JSON list of outcomes.
"""

import asyncio
import importlib.util
import json
import sys
import types
from dataclasses import dataclass, field
from datetime import datetime
from enum import Enum
from typing import Any, Dict, List, Optional


class Platform(Enum):
    TELEGRAM = "telegram"
    DISCORD = "discord"


class MessageType(Enum):
    TEXT = "text"


@dataclass
class SessionSource:
    platform: Platform
    chat_id: str
    chat_name: Optional[str] = None
    chat_type: str = "dm"
    user_id: Optional[str] = None
    user_name: Optional[str] = None
    thread_id: Optional[str] = None
    chat_topic: Optional[str] = None
    user_id_alt: Optional[str] = None
    chat_id_alt: Optional[str] = None
    is_bot: bool = False
    scope_id: Optional[str] = None
    guild_id: Optional[str] = None
    parent_chat_id: Optional[str] = None
    message_id: Optional[str] = None


@dataclass
class MessageEvent:
    text: str
    message_type: MessageType = MessageType.TEXT
    source: SessionSource = None
    raw_message: Any = None
    message_id: Optional[str] = None
    platform_update_id: Optional[int] = None
    media_urls: List[str] = field(default_factory=list)
    media_types: List[str] = field(default_factory=list)
    reply_to_message_id: Optional[str] = None
    reply_to_text: Optional[str] = None
    internal: bool = False
    context_only: bool = False
    timestamp: datetime = field(default_factory=datetime.now)


@dataclass
class SendResult:
    success: bool
    message_id: Optional[str] = None
    error: Optional[str] = None


class RecordingAdapter:
    def __init__(self):
        self.sent = []

    async def send(self, chat_id: str, content: str, reply_to: Optional[str] = None, metadata: Optional[Dict[str, Any]] = None) -> SendResult:
        self.sent.append({"chatId": chat_id, "content": content, "replyTo": reply_to, "metadata": metadata})
        return SendResult(success=True, message_id=str(900 + len(self.sent)))


class GatewayRunner:
    def __init__(self):
        self.adapters = {Platform.TELEGRAM: RecordingAdapter()}


class PluginContext:
    def __init__(self, settings):
        self.settings = settings
        self.hooks = []
        self.unload = []

    def register_hook(self, name, callback):
        self.hooks.append((name, callback))

    def get_config(self, key, default=None):
        return self.settings.get(key, default)

    def on_unload(self, callback):
        self.unload.append(callback)


def load_plugin(path):
    sys.modules.setdefault("hermes_plugins", types.ModuleType("hermes_plugins"))
    spec = importlib.util.spec_from_file_location("hermes_plugins.svc_gateway", f"{path}/__init__.py", submodule_search_locations=[path])
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


async def main():
    plugin = load_plugin(sys.argv[1])
    ctx = PluginContext(json.loads(sys.argv[2]))
    plugin.register(ctx)
    gateway = GatewayRunner()
    adapter = gateway.adapters[Platform.TELEGRAM]
    outcomes = []
    for message in json.loads(sys.stdin.read()):
        source = SessionSource(
            platform=Platform(message["platform"]),
            chat_id=message["chat_id"],
            chat_type=message.get("chat_type", "dm"),
            user_id=message.get("user_id"),
            user_name=message.get("user_name"),
            thread_id=message.get("thread_id"),
            message_id=message.get("message_id"),
        )
        event = MessageEvent(
            text=message["text"],
            source=source,
            message_id=message.get("message_id"),
            reply_to_message_id=message.get("reply_to_message_id"),
            reply_to_text=message.get("reply_to_text"),
        )
        before = len(adapter.sent)
        results = []
        for name, callback in ctx.hooks:
            if name != "pre_gateway_dispatch":
                continue
            result = callback(event=event, gateway=gateway, session_store=None)
            if asyncio.iscoroutine(result):
                result = await result
            results.append(result)
        outcomes.append({"results": results, "sent": adapter.sent[before:]})
    for callback in ctx.unload:
        callback()
    print(json.dumps({"hooks": [name for name, _ in ctx.hooks], "outcomes": outcomes}))


asyncio.run(main())
