-- The search index by workspace (replaces 0043's layout). Each workspace gets a number in its
-- shard (search_accounts, never reused or deleted: a number is 30 bytes), and every index row's
-- rowid starts with it: (number << 37) | (1 << 36) | ticket rowid for a ticket's own row (subject,
-- client_id, customer email and name, tag names), (number << 37) | message rowid for a message's
-- row. A search then names its workspace as a rowid range, which FTS5 seeks to in every doclist:
-- it reads no other workspace's rows at all (0043 read a shared index and dropped other
-- workspaces' hits one by one, so a big neighbour slowed every search), and the newest hits come
-- first when walked by rowid descending, which bounds the work of a common word. Room: 2^26
-- workspaces per shard, 2^36 tickets or messages per shard table. Trigram with diacritics removed,
-- as before: a term matches as a substring of 3 characters or more, in any script.
DROP TRIGGER IF EXISTS ticket_search_ticket_insert;
--> statement-breakpoint
DROP TRIGGER IF EXISTS ticket_search_ticket_update;
--> statement-breakpoint
DROP TRIGGER IF EXISTS ticket_search_ticket_delete;
--> statement-breakpoint
DROP TRIGGER IF EXISTS ticket_search_message_insert;
--> statement-breakpoint
DROP TRIGGER IF EXISTS ticket_search_message_update;
--> statement-breakpoint
DROP TRIGGER IF EXISTS ticket_search_message_delete;
--> statement-breakpoint
DROP TRIGGER IF EXISTS ticket_search_customer_update;
--> statement-breakpoint
DROP TRIGGER IF EXISTS ticket_search_tag_insert;
--> statement-breakpoint
DROP TRIGGER IF EXISTS ticket_search_tag_delete;
--> statement-breakpoint
DROP TRIGGER IF EXISTS ticket_search_tag_rename;
--> statement-breakpoint
DROP VIEW IF EXISTS ticket_search_docs;
--> statement-breakpoint
DROP TABLE IF EXISTS ticket_search;
--> statement-breakpoint
CREATE TABLE search_accounts (
  n INTEGER PRIMARY KEY,
  account_id TEXT NOT NULL UNIQUE
);
--> statement-breakpoint
CREATE VIRTUAL TABLE ticket_search USING fts5(
  ticket_id UNINDEXED,
  text,
  tokenize = 'trigram remove_diacritics 1'
);
--> statement-breakpoint
-- What a ticket's own row holds, under its rowid, for the triggers that (re)write it.
CREATE VIEW ticket_search_docs AS
SELECT (sa.n << 37) | (1 << 36) | t.rowid AS search_rowid, t.id AS ticket_id, t.account_id, t.customer_id,
  t.subject || char(10) || t.client_id || char(10) || c.email || char(10) || coalesce(c.name, '')
    || char(10) || coalesce((SELECT group_concat(tg.name, ' ') FROM ticket_tags tt
      JOIN tags tg ON tg.id = tt.tag_id WHERE tt.ticket_id = t.id), '') AS text
FROM tickets t JOIN customers c ON c.id = t.customer_id
JOIN search_accounts sa ON sa.account_id = t.account_id;
--> statement-breakpoint
-- A ticket's own index row, by the ticket's id.
CREATE VIEW ticket_search_ticket_rows AS
SELECT (sa.n << 37) | (1 << 36) | t.rowid AS search_rowid, t.id AS ticket_id, t.account_id, t.customer_id
FROM tickets t JOIN search_accounts sa ON sa.account_id = t.account_id;
--> statement-breakpoint
CREATE TRIGGER ticket_search_ticket_insert AFTER INSERT ON tickets
BEGIN
  INSERT OR IGNORE INTO search_accounts (account_id) VALUES (NEW.account_id);
  INSERT INTO ticket_search (rowid, ticket_id, text)
  SELECT search_rowid, ticket_id, text FROM ticket_search_docs WHERE ticket_id = NEW.id;
END;
--> statement-breakpoint
CREATE TRIGGER ticket_search_ticket_update AFTER UPDATE OF subject, client_id, customer_id ON tickets
BEGIN
  DELETE FROM ticket_search WHERE rowid =
    (SELECT (n << 37) | (1 << 36) | OLD.rowid FROM search_accounts WHERE account_id = OLD.account_id);
  INSERT INTO ticket_search (rowid, ticket_id, text)
  SELECT search_rowid, ticket_id, text FROM ticket_search_docs WHERE ticket_id = NEW.id;
END;
--> statement-breakpoint
CREATE TRIGGER ticket_search_ticket_delete AFTER DELETE ON tickets
BEGIN
  DELETE FROM ticket_search WHERE rowid =
    (SELECT (n << 37) | (1 << 36) | OLD.rowid FROM search_accounts WHERE account_id = OLD.account_id);
END;
--> statement-breakpoint
CREATE TRIGGER ticket_search_message_insert AFTER INSERT ON messages
WHEN coalesce(NEW.body_text, NEW.html_text, '') <> ''
BEGIN
  INSERT OR IGNORE INTO search_accounts (account_id) VALUES (NEW.account_id);
  INSERT INTO ticket_search (rowid, ticket_id, text)
  SELECT (n << 37) | NEW.rowid, NEW.ticket_id, coalesce(NEW.body_text, NEW.html_text)
  FROM search_accounts WHERE account_id = NEW.account_id;
END;
--> statement-breakpoint
-- A merge moves messages to another ticket; an edit changes their text.
CREATE TRIGGER ticket_search_message_update AFTER UPDATE OF body_text, html_text, ticket_id ON messages
BEGIN
  DELETE FROM ticket_search WHERE rowid =
    (SELECT (n << 37) | OLD.rowid FROM search_accounts WHERE account_id = OLD.account_id);
  INSERT OR IGNORE INTO search_accounts (account_id) VALUES (NEW.account_id);
  INSERT INTO ticket_search (rowid, ticket_id, text)
  SELECT (n << 37) | NEW.rowid, NEW.ticket_id, coalesce(NEW.body_text, NEW.html_text)
  FROM search_accounts WHERE account_id = NEW.account_id
    AND coalesce(NEW.body_text, NEW.html_text, '') <> '';
END;
--> statement-breakpoint
CREATE TRIGGER ticket_search_message_delete AFTER DELETE ON messages
BEGIN
  DELETE FROM ticket_search WHERE rowid =
    (SELECT (n << 37) | OLD.rowid FROM search_accounts WHERE account_id = OLD.account_id);
END;
--> statement-breakpoint
CREATE TRIGGER ticket_search_customer_update AFTER UPDATE OF name, email ON customers
BEGIN
  DELETE FROM ticket_search WHERE rowid IN
    (SELECT search_rowid FROM ticket_search_ticket_rows
     WHERE account_id = NEW.account_id AND customer_id = NEW.id);
  INSERT INTO ticket_search (rowid, ticket_id, text)
  SELECT search_rowid, ticket_id, text FROM ticket_search_docs
  WHERE account_id = NEW.account_id AND customer_id = NEW.id;
END;
--> statement-breakpoint
CREATE TRIGGER ticket_search_tag_insert AFTER INSERT ON ticket_tags
BEGIN
  DELETE FROM ticket_search WHERE rowid =
    (SELECT search_rowid FROM ticket_search_ticket_rows WHERE ticket_id = NEW.ticket_id);
  INSERT INTO ticket_search (rowid, ticket_id, text)
  SELECT search_rowid, ticket_id, text FROM ticket_search_docs WHERE ticket_id = NEW.ticket_id;
END;
--> statement-breakpoint
CREATE TRIGGER ticket_search_tag_delete AFTER DELETE ON ticket_tags
BEGIN
  DELETE FROM ticket_search WHERE rowid =
    (SELECT search_rowid FROM ticket_search_ticket_rows WHERE ticket_id = OLD.ticket_id);
  INSERT INTO ticket_search (rowid, ticket_id, text)
  SELECT search_rowid, ticket_id, text FROM ticket_search_docs WHERE ticket_id = OLD.ticket_id;
END;
--> statement-breakpoint
CREATE TRIGGER ticket_search_tag_rename AFTER UPDATE OF name ON tags
BEGIN
  DELETE FROM ticket_search WHERE rowid IN
    (SELECT r.search_rowid FROM ticket_tags tt JOIN ticket_search_ticket_rows r ON r.ticket_id = tt.ticket_id
     WHERE tt.tag_id = NEW.id);
  INSERT INTO ticket_search (rowid, ticket_id, text)
  SELECT search_rowid, ticket_id, text FROM ticket_search_docs
  WHERE ticket_id IN (SELECT ticket_id FROM ticket_tags WHERE tag_id = NEW.id);
END;
--> statement-breakpoint
-- The tickets and messages written before this migration.
INSERT INTO search_accounts (account_id)
SELECT account_id FROM tickets UNION SELECT account_id FROM messages;
--> statement-breakpoint
INSERT INTO ticket_search (rowid, ticket_id, text)
SELECT search_rowid, ticket_id, text FROM ticket_search_docs;
--> statement-breakpoint
INSERT INTO ticket_search (rowid, ticket_id, text)
SELECT (sa.n << 37) | m.rowid, m.ticket_id, coalesce(m.body_text, m.html_text)
FROM messages m JOIN search_accounts sa ON sa.account_id = m.account_id
WHERE coalesce(m.body_text, m.html_text, '') <> '';
