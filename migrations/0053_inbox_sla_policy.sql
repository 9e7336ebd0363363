ALTER TABLE `inboxes` ADD `sla_policy` text;--> statement-breakpoint
-- Every inbox's enabled policy as its writes keep it (src/features/sla/inbox-policy.ts).
UPDATE inboxes SET sla_policy = (
  SELECT json_object('id', p.id, 'targets', json(p.targets), 'hours', json(p.hours),
    'pause_statuses', json(p.pause_statuses), 'warning_before', p.warning_before)
  FROM sla_policy_inboxes pi JOIN sla_policies p ON p.id = pi.policy_id
  WHERE pi.inbox_id = inboxes.id AND p.enabled = 1
);
