-- Full-text search of tickets (GET /v1/tickets?q=). One FTS5 row per ticket (rowid: minus the
-- ticket's rowid; its subject, client_id, customer email and name, tag names) and one per message
-- (rowid: the message's rowid; its text, `body_text` or else `html_text`), so a new message adds
-- one row and never re-indexes its ticket. Trigram with diacritics removed: a term matches as a
-- substring of 3 characters or more, whatever its case or accents, in any script (Japanese and
-- Chinese have no spaces for a word tokenizer to split on). The triggers below keep it whatever
-- writes the source rows (API, inbound mail, portal, dashboard, merges, cascades, moves).
CREATE VIRTUAL TABLE ticket_search USING fts5(
  account_id UNINDEXED,
  ticket_id UNINDEXED,
  text,
  tokenize = 'trigram remove_diacritics 1'
);
--> statement-breakpoint
-- What a ticket's own row holds, for the triggers that (re)write it.
CREATE VIEW ticket_search_docs AS
SELECT -t.rowid AS search_rowid, t.id AS ticket_id, t.account_id, t.customer_id,
  t.subject || char(10) || t.client_id || char(10) || c.email || char(10) || coalesce(c.name, '')
    || char(10) || coalesce((SELECT group_concat(tg.name, ' ') FROM ticket_tags tt
      JOIN tags tg ON tg.id = tt.tag_id WHERE tt.ticket_id = t.id), '') AS text
FROM tickets t JOIN customers c ON c.id = t.customer_id;
--> statement-breakpoint
CREATE TRIGGER ticket_search_ticket_insert AFTER INSERT ON tickets
BEGIN
  INSERT INTO ticket_search (rowid, account_id, ticket_id, text)
  SELECT search_rowid, account_id, ticket_id, text FROM ticket_search_docs WHERE ticket_id = NEW.id;
END;
--> statement-breakpoint
CREATE TRIGGER ticket_search_ticket_update AFTER UPDATE OF subject, client_id, customer_id ON tickets
BEGIN
  DELETE FROM ticket_search WHERE rowid = -OLD.rowid;
  INSERT INTO ticket_search (rowid, account_id, ticket_id, text)
  SELECT search_rowid, account_id, ticket_id, text FROM ticket_search_docs WHERE ticket_id = NEW.id;
END;
--> statement-breakpoint
CREATE TRIGGER ticket_search_ticket_delete AFTER DELETE ON tickets
BEGIN
  DELETE FROM ticket_search WHERE rowid = -OLD.rowid;
END;
--> statement-breakpoint
CREATE TRIGGER ticket_search_message_insert AFTER INSERT ON messages
WHEN coalesce(NEW.body_text, NEW.html_text, '') <> ''
BEGIN
  INSERT INTO ticket_search (rowid, account_id, ticket_id, text)
  VALUES (NEW.rowid, NEW.account_id, NEW.ticket_id, coalesce(NEW.body_text, NEW.html_text));
END;
--> statement-breakpoint
-- A merge moves messages to another ticket; an edit changes their text.
CREATE TRIGGER ticket_search_message_update AFTER UPDATE OF body_text, html_text, ticket_id ON messages
BEGIN
  DELETE FROM ticket_search WHERE rowid = OLD.rowid;
  INSERT INTO ticket_search (rowid, account_id, ticket_id, text)
  SELECT NEW.rowid, NEW.account_id, NEW.ticket_id, coalesce(NEW.body_text, NEW.html_text)
  WHERE coalesce(NEW.body_text, NEW.html_text, '') <> '';
END;
--> statement-breakpoint
CREATE TRIGGER ticket_search_message_delete AFTER DELETE ON messages
BEGIN
  DELETE FROM ticket_search WHERE rowid = OLD.rowid;
END;
--> statement-breakpoint
CREATE TRIGGER ticket_search_customer_update AFTER UPDATE OF name, email ON customers
BEGIN
  DELETE FROM ticket_search WHERE rowid IN (SELECT -rowid FROM tickets WHERE customer_id = NEW.id);
  INSERT INTO ticket_search (rowid, account_id, ticket_id, text)
  SELECT search_rowid, account_id, ticket_id, text FROM ticket_search_docs WHERE customer_id = NEW.id;
END;
--> statement-breakpoint
CREATE TRIGGER ticket_search_tag_insert AFTER INSERT ON ticket_tags
BEGIN
  DELETE FROM ticket_search WHERE rowid = (SELECT -rowid FROM tickets WHERE id = NEW.ticket_id);
  INSERT INTO ticket_search (rowid, account_id, ticket_id, text)
  SELECT search_rowid, account_id, ticket_id, text FROM ticket_search_docs WHERE ticket_id = NEW.ticket_id;
END;
--> statement-breakpoint
CREATE TRIGGER ticket_search_tag_delete AFTER DELETE ON ticket_tags
BEGIN
  DELETE FROM ticket_search WHERE rowid = (SELECT -rowid FROM tickets WHERE id = OLD.ticket_id);
  INSERT INTO ticket_search (rowid, account_id, ticket_id, text)
  SELECT search_rowid, account_id, ticket_id, text FROM ticket_search_docs WHERE ticket_id = OLD.ticket_id;
END;
--> statement-breakpoint
CREATE TRIGGER ticket_search_tag_rename AFTER UPDATE OF name ON tags
BEGIN
  DELETE FROM ticket_search WHERE rowid IN
    (SELECT -t.rowid FROM ticket_tags tt JOIN tickets t ON t.id = tt.ticket_id WHERE tt.tag_id = NEW.id);
  INSERT INTO ticket_search (rowid, account_id, ticket_id, text)
  SELECT search_rowid, account_id, ticket_id, text FROM ticket_search_docs
  WHERE ticket_id IN (SELECT ticket_id FROM ticket_tags WHERE tag_id = NEW.id);
END;
--> statement-breakpoint
-- The tickets and messages written before this migration.
INSERT INTO ticket_search (rowid, account_id, ticket_id, text)
SELECT search_rowid, account_id, ticket_id, text FROM ticket_search_docs;
--> statement-breakpoint
INSERT INTO ticket_search (rowid, account_id, ticket_id, text)
SELECT rowid, account_id, ticket_id, coalesce(body_text, html_text) FROM messages
WHERE coalesce(body_text, html_text, '') <> '';
