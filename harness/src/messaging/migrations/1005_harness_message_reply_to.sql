-- The platform message an outbound message answers (a work request's FINAL_RESULT, a discussion's
-- answer): gateways that can send it as a reply do.
ALTER TABLE harness_messages ADD COLUMN target_reply_to TEXT;
