"""svc gateway plugin for Hermes Agent.

A platform message meant for svc (it starts with the prefix, default ``/svc``, or it is, or replies
to, a message carrying ``[[svc:task=<id>]]``) is handed to ``svc mcp`` (profile ``gateway``) from
the ``pre_gateway_dispatch`` hook, before auth, pairing or the agent. The service's answer is sent
to the same chat and thread through the platform adapter and the message is skipped; for anything
else the hook returns None (normal dispatch, leaving other plugins' answers in force). Python
standard library only.
"""

from .gateway_hook import SvcGatewayHook

_SETTINGS = ("command", "args", "prefix", "env")


def register(ctx):
    get = getattr(ctx, "get_config", None)
    settings = {key: get(key) for key in _SETTINGS} if callable(get) else {}
    hook = SvcGatewayHook({key: value for key, value in settings.items() if value is not None})
    ctx.register_hook("pre_gateway_dispatch", hook.pre_gateway_dispatch)
    on_unload = getattr(ctx, "on_unload", None)
    if callable(on_unload):
        on_unload(hook.close)
