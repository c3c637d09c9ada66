"""The identifiers of an inbound message, read only from Hermes's MessageEvent and its SessionSource
(the platform adapter's own data), never from anything a model wrote."""


def inbound_identity(event):
    """``{platform, chatId, threadId?, platformMessageId, senderId, replyToMessageId?}``, or None when
    the event lacks one of the required ids."""
    source = getattr(event, "source", None)
    if source is None:
        return None
    platform = getattr(source, "platform", None)
    # Platform is an Enum in Hermes (Platform.TELEGRAM.value == "telegram").
    platform = getattr(platform, "value", platform)
    chat_id = getattr(source, "chat_id", None)
    message_id = getattr(event, "message_id", None) or getattr(source, "message_id", None)
    sender_id = getattr(source, "user_id", None)
    if not platform or not chat_id or not message_id or not sender_id:
        return None
    identity = {
        "platform": str(platform),
        "chatId": str(chat_id),
        "platformMessageId": str(message_id),
        "senderId": str(sender_id),
    }
    thread_id = getattr(source, "thread_id", None)
    if thread_id:
        identity["threadId"] = str(thread_id)
    reply_to = getattr(event, "reply_to_message_id", None)
    if reply_to:
        identity["replyToMessageId"] = str(reply_to)
    return identity
