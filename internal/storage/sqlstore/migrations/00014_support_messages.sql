-- +goose Up
-- "Message to Support" from a visitor whose registration the bot-check
-- refused (wordfence_ls_register_support). The mail outbox row (kind
-- support_message, ref = id) is written in the same transaction; the
-- renderer reads the text from here at send time.
CREATE TABLE support_messages (
    id         INTEGER PRIMARY KEY,    -- @sqlite
    id         BIGSERIAL PRIMARY KEY,  -- @postgres
    email      TEXT NOT NULL,   -- as the visitor typed it (may be empty)
    username   TEXT NOT NULL,   -- optional user_login (may be empty)
    message    TEXT NOT NULL,   -- at most 2,000 characters
    client_ip  TEXT NOT NULL,
    created_at BIGINT NOT NULL  -- unix seconds
);
CREATE INDEX support_messages_created ON support_messages (created_at);

-- +goose Down
DROP TABLE support_messages;
