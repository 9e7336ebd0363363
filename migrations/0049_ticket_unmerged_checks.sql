-- A write to a ticket, atomic with a merge of it: the API's and the dashboard's writes (a message,
-- an edit, an action) insert the ticket here first in their batch; when a merge committed in the
-- meantime the insert aborts, and with it the whole batch, so nothing lands on a merged ticket
-- (its messages already moved to the survivor). The read before the batch catches the usual case.
CREATE VIEW ticket_unmerged_checks AS
SELECT id AS ticket_id, account_id FROM tickets WHERE 0;
--> statement-breakpoint
CREATE TRIGGER ticket_unmerged_checks_insert INSTEAD OF INSERT ON ticket_unmerged_checks
BEGIN
  SELECT RAISE(ABORT, 'ticket_merged')
  WHERE EXISTS (
    SELECT 1 FROM tickets t
    WHERE t.id = NEW.ticket_id AND t.account_id = NEW.account_id AND t.merged_into_id IS NOT NULL
  );
END;
